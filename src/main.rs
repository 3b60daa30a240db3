//! The `locksmith` binary: a thin `clap` layer over the library's commands. It parses arguments,
//! hands a command standard output to render its report into, and prints the error line and
//! exits with the status the command returns; it never analyses, builds reports or formats them.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Arg, ArgAction, ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use locksmith::config::{self, CommandLine, Which};
use locksmith::lambda::{self, LambdaOptions};
use locksmith::render::{ColorChoice, Format, HelpUri, Outcome, RenderContext, SourceReader};
use locksmith::switches;
use solver::{Technique, Techniques};

/// mimalloc instead of glibc's malloc: the analysis makes and frees millions of small vectors and
/// hash tables, and glibc's free lists (consolidation, unlinking chunks) took a fifth of a
/// million-line run and grew with the heap. Built without transparent huge pages (`no_thp`):
/// with them, a small program's run touched 2 MiB pages and peaked at three times its memory.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "locksmith",
    version,
    about = "Static data-race detection for POSIX-threads C programs (LOCKSMITH, PLDI 2006)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The switches that turn off one technique of the analysis each, to measure what it buys (the
/// paper's table 3): one `--…` flag per [`Technique`], named and explained in `switches`.
#[derive(Debug, Clone, Copy, Default)]
struct TechniqueSwitches(Techniques);

impl FromArgMatches for TechniqueSwitches {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut on = Techniques::all();
        for t in Technique::ALL {
            if matches.get_flag(switches::flag(t)) {
                on.disable(t);
            }
        }
        Ok(TechniqueSwitches(on))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for TechniqueSwitches {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        Technique::ALL.into_iter().fold(cmd, |cmd, t| {
            cmd.arg(
                Arg::new(switches::flag(t))
                    .long(switches::flag(t))
                    .action(ArgAction::SetTrue)
                    .help(switches::help(t))
                    .help_heading("Techniques, each turned off to measure what it buys")
                    .hide_short_help(true),
            )
        })
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// The arguments of `locksmith check`.
#[derive(Args)]
struct CheckArgs {
    /// The C files of one program (`.i` files are taken as already preprocessed); with `-p` or
    /// `--compile-commands`, the files, directories or quoted glob patterns of the build to check.
    #[arg(required_unless_present_any = ["build_dir", "compile_commands"])]
    files: Vec<PathBuf>,
    /// Check the C translation units of a build, each with its own flags: those of
    /// BUILD_DIR/compile_commands.json (or of BUILD_DIR, when it is that file).
    #[arg(
        short = 'p',
        value_name = "BUILD_DIR",
        conflicts_with = "compile_commands",
        help_heading = "Build"
    )]
    build_dir: Option<PathBuf>,
    /// Check the C translation units of this compilation database (as `-p`).
    #[arg(long, value_name = "FILE", help_heading = "Build")]
    compile_commands: Option<PathBuf>,
    /// Say on stderr what a compilation database's entries had that locksmith left out.
    #[arg(long, short = 'v', help_heading = "Build")]
    verbose: bool,
    /// Add a directory to the preprocessor's include path.
    #[arg(short = 'I', value_name = "DIR", help_heading = "Build")]
    include: Vec<PathBuf>,
    /// Define a preprocessor macro (`NAME` or `NAME=VALUE`).
    #[arg(short = 'D', value_name = "NAME[=VALUE]", help_heading = "Build")]
    define: Vec<String>,
    /// Undefine a preprocessor macro.
    #[arg(short = 'U', value_name = "NAME", help_heading = "Build")]
    undefine: Vec<String>,
    /// The C standard passed to the preprocessor (e.g. `gnu11`).
    #[arg(long = "std", value_name = "STD", help_heading = "Build")]
    std: Option<String>,
    /// Include this file before each input (`gcc -include`).
    #[arg(long = "include", value_name = "FILE", help_heading = "Build")]
    forced_include: Vec<PathBuf>,
    /// Output format of the report.
    #[arg(long, value_enum, default_value = "text", help_heading = "Output")]
    format: Format,
    /// Colour the text format: `auto` when stdout is a terminal and NO_COLOR is not set,
    /// `always` (even with NO_COLOR) or `never`. Other formats are never coloured.
    #[arg(
        long,
        value_enum,
        value_name = "WHEN",
        default_value = "auto",
        help_heading = "Output"
    )]
    color: ColorChoice,
    #[command(flatten)]
    switches: TechniqueSwitches,
    /// Print the wall time and peak memory of each phase to stderr.
    #[arg(long, help_heading = "Output")]
    timings: bool,
    /// The directory every format names files relative to, as a compiler run there would
    /// (default: the current directory); files outside it keep the names they were given.
    #[arg(long, value_name = "DIR", help_heading = "Output")]
    source_root: Option<PathBuf>,
    /// Where each rule's documentation is, for SARIF's `helpUri`: an absolute URI in which
    /// `{rule}` stands for the rule's id (`https://example.org/locksmith/rules.html#{rule}`).
    #[arg(long, value_name = "URI", value_parser = HelpUri::parse, help_heading = "Output")]
    help_uri: Option<HelpUri>,
    /// The directory `--format html` writes its report into (created if needed).
    #[arg(
        short = 'o',
        long = "output",
        value_name = "DIR",
        help_heading = "Output"
    )]
    output: Option<PathBuf>,
    /// Check a program without `main`: these functions may each be called by any number of
    /// threads at once, with arguments from code locksmith cannot see.
    #[arg(
        long,
        value_name = "F,G",
        value_delimiter = ',',
        help_heading = "What to check"
    )]
    entry: Vec<String>,
    /// Check a library: every function other files could call is such an entry point.
    #[arg(long, conflicts_with = "entry", help_heading = "What to check")]
    library: bool,
    /// Leave out the warnings this baseline records (written by `--write-baseline`).
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    baseline: Option<PathBuf>,
    /// Write the baseline of this run's warnings (those no comment silences) to FILE.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    write_baseline: Option<PathBuf>,
    /// Skip the deadlock check (cycles in the lock order, self-deadlocks) and the lock leaks.
    #[arg(long, help_heading = "What to check")]
    no_deadlocks: bool,
    /// Exit with 0 when nothing is found although a function that may run was not analysed
    /// (the verdict stays `incomplete`).
    #[arg(long, help_heading = "What to check")]
    allow_incomplete: bool,
    /// Read this configuration file instead of the first `locksmith.toml` found from the
    /// current directory upwards.
    #[arg(long, value_name = "FILE", help_heading = "What to check")]
    config: Option<PathBuf>,
    /// Read no configuration file.
    #[arg(long, conflicts_with = "config", help_heading = "What to check")]
    no_config: bool,
    /// Parse every unit again instead of reading back those parsed by an earlier run from the
    /// cache in the data directory.
    #[arg(long, help_heading = "Budget")]
    no_cache: bool,
    /// Analyse on at most N threads at once (default: one per core). With 1, files are parsed
    /// one after another and the deadlock check runs after the race check. What is reported
    /// never depends on it.
    #[arg(short = 'j', long, value_name = "N", help_heading = "Budget")]
    jobs: Option<std::num::NonZeroUsize>,
    /// Stop after this long (seconds, or with a unit: 90, 1.5m, 2h) and report what was found,
    /// with the verdict `incomplete` when nothing was.
    #[arg(long, value_name = "TIME", value_parser = locksmith::limits::time, help_heading = "Budget")]
    time_limit: Option<std::time::Duration>,
    /// Stop when the process holds this much memory (MiB, or with a unit: 800, 512M, 2G) and
    /// report what was found, with the verdict `incomplete` when nothing was.
    #[arg(long, value_name = "SIZE", value_parser = locksmith::limits::memory, help_heading = "Budget")]
    memory_limit: Option<u64>,
}

#[derive(Subcommand)]
enum Command {
    /// Check POSIX-threads C programs for data races, potential deadlocks and lock leaks.
    ///
    /// Data races by consistent correlation (LOCKSMITH, paper §3). Exit 0 if no warning, 1 if
    /// warnings, 2 if the program cannot be analysed, 3 if no warning but a function that may
    /// run was not analysed (the result is incomplete; 0 with --allow-incomplete).
    Check(Box<CheckArgs>),
    /// Type-check a program of the formal core language λ▷ (paper §2).
    ///
    /// Exit 0 if it is consistently correlated and linear, 1 if not, 2 if it cannot be analysed.
    Lambda {
        /// The λ▷ source file.
        file: PathBuf,
        /// Output format of the verdict.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Print the inferred type of every let-bound name, with its labels.
        #[arg(long)]
        types: bool,
        /// Write the constraint graph as Graphviz DOT to this file.
        #[arg(long, value_name = "FILE")]
        dot: Option<PathBuf>,
        /// Print the generated constraints and their solution, in the paper's notation.
        #[arg(long)]
        constraints: bool,
        /// Check without existential types: `pack e` is `e`, and `unpack` takes the pair apart.
        #[arg(long)]
        no_existentials: bool,
    },
    /// Print the annotation header `locksmith.h` for your own build.
    ///
    /// Its macros compile to nothing under a normal compiler. With -o DIR, write it into DIR and
    /// print its path.
    Header {
        /// The directory to write `locksmith.h` into (created if needed).
        #[arg(short = 'o', long = "output", value_name = "DIR")]
        output: Option<PathBuf>,
    },
    /// Print a completion script for a shell.
    ///
    /// Source it, or install it where the shell looks for completions (bash: `locksmith
    /// completions bash > ~/.local/share/bash-completion/completions/locksmith`).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page of locksmith, or of one of its commands.
    ///
    /// The page is roff: `locksmith man check | man -l -`, or install it as `locksmith.1`
    /// (`locksmith-check.1`).
    Man {
        /// The command whose page to print (`check`, `lambda`, …); locksmith's own without.
        command: Option<String>,
    },
}

/// Writes `bytes` to stdout: exit 0, or 2 when stdout cannot take them.
fn print_bytes(bytes: &[u8]) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("locksmith: error: cannot write the output: {e}");
            ExitCode::from(2)
        }
    }
}

/// `locksmith man [COMMAND]`: the manual page of locksmith or of one of its commands, made from
/// the command line's own definition (`clap_mangen`), so that it cannot drift from `--help`.
fn man(command: Option<&str>) -> ExitCode {
    let cli = Cli::command();
    let page = match command {
        None => cli,
        Some(name) => match cli.find_subcommand(name) {
            Some(sub) => sub.clone().name(format!("locksmith-{name}")),
            None => {
                let names: Vec<&str> = cli.get_subcommands().map(|c| c.get_name()).collect();
                eprintln!(
                    "locksmith: error: no command `{name}`: the commands are {}",
                    names.join(", ")
                );
                return ExitCode::from(2);
            }
        },
    };
    let mut out = Vec::new();
    match clap_mangen::Man::new(page).render(&mut out) {
        Ok(()) => print_bytes(&out),
        Err(e) => {
            eprintln!("locksmith: error: cannot make the manual page: {e}");
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    // An internal error (a panic) is contained where it happens and reported by the command as
    // one line with exit status 2 (or, in one function, as that function not analysed); the
    // default message and backtrace on stderr are for developers, who set RUST_BACKTRACE.
    if std::env::var_os("RUST_BACKTRACE").is_none_or(|v| v.is_empty() || v == "0") {
        std::panic::set_hook(Box::new(|_| {}));
    }
    // `@file` arguments are expanded before parsing, so that they can hold any argument.
    let args = match locksmith::args::expand(std::env::args_os()) {
        Ok(args) => args,
        Err(message) => {
            eprintln!("locksmith: error: {message}");
            return ExitCode::from(2);
        }
    };
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => return usage(e),
    };
    match cli.command {
        Command::Check(args) => check(*args),
        Command::Header { output } => header(output.as_deref()),
        Command::Completions { shell } => {
            let mut cmd = Cli::command();
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut cmd, "locksmith", &mut out);
            print_bytes(&out)
        }
        Command::Man { command } => man(command.as_deref()),
        Command::Lambda {
            file,
            format,
            types,
            dot,
            constraints,
            no_existentials,
        } => {
            if format == Format::Html {
                usage_error("lambda", "`--format html` is for `locksmith check` only");
            }
            let options = LambdaOptions {
                format,
                types,
                dot: dot.is_some(),
                constraints,
                no_existentials,
            };
            let mut out = std::io::stdout().lock();
            finish(&lambda::run_file(&file, dot.as_deref(), &options, &mut out))
        }
    }
}

fn check(args: CheckArgs) -> ExitCode {
    check_output_usage(args.format, args.output.is_some());
    let which = match (args.config, args.no_config) {
        (_, true) => Which::Ignore,
        (Some(file), false) => Which::File(file),
        (None, false) => {
            // Failing the current directory, the checked files' or the build's.
            let mut beside: Vec<PathBuf> = args
                .build_dir
                .iter()
                .chain(&args.compile_commands)
                .chain(&args.files)
                .filter_map(|p| {
                    if p.is_dir() {
                        Some(p.as_path())
                    } else {
                        p.parent()
                    }
                })
                .map(Path::to_path_buf)
                .collect();
            beside.dedup();
            Which::Find(std::env::current_dir().unwrap_or_default(), beside)
        }
    };
    let command_line = CommandLine {
        include: args.include,
        define: args.define,
        undefine: args.undefine,
        std: args.std,
        forced_include: args.forced_include,
        entry: args.entry,
        library: args.library,
        techniques: args.switches.0,
        no_deadlocks: args.no_deadlocks,
        jobs: args.jobs,
        cache: !args.no_cache,
        limits: solver::budget::Limits {
            time: args.time_limit,
            memory: args.memory_limit,
        },
    };
    // The report goes to stdout as it is rendered: a large one is never held whole.
    let mut out = std::io::BufWriter::with_capacity(1 << 20, std::io::stdout().lock());
    let cx = RenderContext {
        color: args.color.enabled(
            std::io::stdout().is_terminal(),
            std::env::var_os("NO_COLOR").as_deref(),
        ),
        output_dir: args.output,
        help_uri: args.help_uri,
        ..RenderContext::new(SourceReader::on_disk(args.source_root))
    };
    let options = match config::load(&which) {
        Ok(found) => config::check_options(command_line, found),
        Err(fatal) => {
            return finish(&locksmith::check::failed(
                &fatal,
                args.format,
                &cx,
                &mut out,
            ))
        }
    };
    let database = args
        .build_dir
        .map(|build| locksmith::compdb::locate(&build))
        .or(args.compile_commands);
    let inputs =
        match locksmith::check::inputs(args.files, database.as_deref(), &options.preprocess) {
            Ok(selected) => {
                if args.verbose {
                    for note in &selected.notes {
                        eprintln!("locksmith: note: {note}");
                    }
                }
                selected.inputs
            }
            Err(fatal) => {
                return finish(&locksmith::check::failed(
                    &fatal,
                    args.format,
                    &cx,
                    &mut out,
                ))
            }
        };
    let running = locksmith::progress::start(locksmith::progress::Show {
        timings: args.timings,
        statistics: std::env::var_os("LOCKSMITH_STATS").is_some(),
    });
    let triage = locksmith::check::Triage {
        baseline: args.baseline,
        write_baseline: args.write_baseline,
        allow_incomplete: args.allow_incomplete,
    };
    let outcome = locksmith::check::run_triaged(
        inputs,
        options,
        args.format,
        cx,
        &triage,
        running.stats(),
        &mut out,
    );
    drop(running);
    finish(&outcome)
}

/// `--format html` writes a directory, which `-o DIR` names; `-o` means nothing to the formats
/// that print on stdout. Either mistake is a usage error (exit status 2).
fn check_output_usage(format: Format, output: bool) {
    if format == Format::Html && !output {
        usage_error(
            "check",
            "`--format html` writes a directory: give it with `-o DIR`",
        );
    }
    if format != Format::Html && output {
        usage_error(
            "check",
            "`-o DIR` is for `--format html`, which writes a directory; other formats print on \
             stdout",
        );
    }
}

/// Exits with clap's usage error for `subcommand` (the message, its usage line, exit status 2).
fn usage_error(subcommand: &str, message: &str) -> ! {
    use clap::CommandFactory;
    let mut cli = Cli::command().bin_name("locksmith");
    cli.build();
    let mut cmd = cli.find_subcommand(subcommand).cloned().unwrap_or(cli);
    usage(cmd.error(clap::error::ErrorKind::ArgumentConflict, message));
    std::process::exit(2)
}

/// `locksmith header`: the annotation header on stdout, or written into a directory.
fn header(output: Option<&Path>) -> ExitCode {
    let (name, text) = c_frontend::syntax::embedded::annotation_header();
    let Some(dir) = output else {
        print!("{text}");
        return ExitCode::SUCCESS;
    };
    let path = dir.join(name);
    match std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, text)) {
        Ok(()) => {
            println!("{}", path.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!(
                "locksmith: error: {}: cannot write the header: {e}",
                path.display()
            );
            ExitCode::from(2)
        }
    }
}

/// A command line clap cannot read: `--help` and `--version` as clap prints them (exit status
/// 0), anything else as an error line like every other (`locksmith: error: …`, exit status 2),
/// with clap's hints after it.
fn usage(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            return ExitCode::from(2);
        }
        _ => {}
    }
    let rendered = e.render().to_string();
    let message = rendered.strip_prefix("error: ").unwrap_or(&rendered);
    eprint!("locksmith: error: {message}");
    ExitCode::from(2)
}

/// Ends a command whose report is on stdout already: its error line (if any) on stderr, and its
/// exit status.
fn finish(outcome: &Outcome) -> ExitCode {
    match std::io::stderr().write_all(outcome.stderr.as_bytes()) {
        Ok(()) => ExitCode::from(outcome.exit as u8),
        // Nowhere is left to say why the run failed; it still fails, never passes in silence.
        Err(_) => ExitCode::from(2),
    }
}

//! The `locksmith` binary: a thin `clap` layer over the library's commands. It parses arguments
//! and prints what a command returns; it never analyses, builds reports or formats them.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Arg, ArgAction, ArgMatches, Args, FromArgMatches, Parser, Subcommand};
use locksmith::config::{self, CommandLine, Which};
use locksmith::lambda::{self, LambdaOptions};
use locksmith::render::{Format, Outcome};
use solver::{Technique, Techniques};

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
/// paper's table 3): one `--…` flag per [`Technique`], named and explained by the enum itself.
#[derive(Debug, Clone, Copy, Default)]
struct TechniqueSwitches(Techniques);

impl FromArgMatches for TechniqueSwitches {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut on = Techniques::all();
        for t in Technique::ALL {
            if matches.get_flag(t.flag()) {
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
                Arg::new(t.flag())
                    .long(t.flag())
                    .action(ArgAction::SetTrue)
                    .help(t.help()),
            )
        })
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

// The arguments of `locksmith check`, boxed in `Command` since they are most of its size.
#[derive(Args)]
struct CheckArgs {
    /// The C files of one program (`.i` files are taken as already preprocessed).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Add a directory to the preprocessor's include path.
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<PathBuf>,
    /// Define a preprocessor macro (`NAME` or `NAME=VALUE`).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    define: Vec<String>,
    /// Undefine a preprocessor macro.
    #[arg(short = 'U', value_name = "NAME")]
    undefine: Vec<String>,
    /// The C standard passed to the preprocessor (e.g. `gnu11`).
    #[arg(long = "std", value_name = "STD")]
    std: Option<String>,
    /// Include this file before each input (`gcc -include`).
    #[arg(long = "include", value_name = "FILE")]
    forced_include: Vec<PathBuf>,
    /// Output format of the report.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    #[command(flatten)]
    switches: TechniqueSwitches,
    /// Print the wall time and peak memory of each phase to stderr.
    #[arg(long)]
    timings: bool,
    /// The directory SARIF output names files relative to (default: the current directory).
    #[arg(long, value_name = "DIR")]
    source_root: Option<PathBuf>,
    /// Check a program without `main`: these functions may each be called by any number of
    /// threads at once, with arguments from code locksmith cannot see.
    #[arg(long, value_name = "F,G", value_delimiter = ',')]
    entry: Vec<String>,
    /// Check a library: every function other files could call is such an entry point.
    #[arg(long, conflicts_with = "entry")]
    library: bool,
    /// Leave out the warnings this baseline records (written by `--write-baseline`).
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Write the baseline of this run's warnings (those no comment silences) to FILE.
    #[arg(long, value_name = "FILE")]
    write_baseline: Option<PathBuf>,
    /// Read this configuration file instead of the first `locksmith.toml` found from the
    /// current directory upwards.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Read no configuration file.
    #[arg(long, conflicts_with = "config")]
    no_config: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Check POSIX-threads C programs for data races (consistent correlation, paper §3): exit 0
    /// if no warning, 1 if warnings, 2 if the program cannot be analysed.
    Check(Box<CheckArgs>),
    /// Type-check a program of the formal core language λ▷ (paper §2): exit 0 if it is
    /// consistently correlated and linear, 1 if not, 2 if it cannot be analysed.
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
}

fn main() -> ExitCode {
    // An internal error (a panic) is contained where it happens and reported by the command as
    // one line with exit status 2 (or, in one function, as that function not analysed); the
    // default message and backtrace on stderr are for developers, who set RUST_BACKTRACE.
    if std::env::var_os("RUST_BACKTRACE").is_none_or(|v| v.is_empty() || v == "0") {
        std::panic::set_hook(Box::new(|_| {}));
    }
    let cli = Cli::parse();
    match cli.command {
        Command::Check(args) => {
            let CheckArgs {
                files,
                include,
                define,
                undefine,
                std,
                forced_include,
                format,
                switches,
                timings,
                source_root,
                entry,
                library,
                baseline,
                write_baseline,
                config,
                no_config,
            } = *args;
            let which = match (config, no_config) {
                (_, true) => Which::Ignore,
                (Some(file), false) => Which::File(file),
                (None, false) => Which::Find(std::env::current_dir().unwrap_or_default()),
            };
            let command_line = CommandLine {
                include,
                define,
                undefine,
                std,
                forced_include,
                entry,
                library,
                techniques: switches.0,
            };
            let sources = locksmith::render::Sources::disk().rooted(source_root);
            // The report goes to stdout as it is rendered: a large one is never held whole.
            let mut out = locksmith::render::IoWriter::new(std::io::BufWriter::with_capacity(
                1 << 20,
                std::io::stdout().lock(),
            ));
            let options = match config::load(&which) {
                Ok(found) => config::check_options(command_line, found),
                Err(fatal) => {
                    let outcome = locksmith::check::fail(&fatal, format, &sources, &mut out);
                    out.finish();
                    return finish(&outcome);
                }
            };
            let running = locksmith::progress::start(locksmith::progress::Show {
                timings,
                statistics: std::env::var_os("LOCKSMITH_STATS").is_some(),
            });
            let triage = locksmith::check::Triage {
                baseline,
                write_baseline,
            };
            let outcome =
                locksmith::check::run_triaged(files, options, format, sources, &triage, &mut out);
            out.finish();
            drop(running);
            finish(&outcome)
        }
        Command::Lambda {
            file,
            format,
            types,
            dot,
            constraints,
            no_existentials,
        } => {
            let options = LambdaOptions {
                format,
                types,
                dot: dot.is_some(),
                constraints,
                no_existentials,
            };
            finish(&lambda::run_file(&file, dot.as_deref(), &options))
        }
    }
}

fn finish(outcome: &Outcome) -> ExitCode {
    let _ = std::io::stdout().write_all(outcome.stdout.as_bytes());
    let _ = std::io::stderr().write_all(outcome.stderr.as_bytes());
    ExitCode::from(outcome.exit as u8)
}

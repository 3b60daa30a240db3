//! The `locksmith` binary: a thin `clap` layer over the library's commands.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use locksmith::lambda::{self, Format, LambdaOptions};

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

#[derive(Copy, Clone, Debug, ValueEnum)]
enum FormatArg {
    Text,
    Json,
}

/// Switches that turn off one technique of the analysis each, to measure what it buys (the
/// paper's table 3). None of them can hide a race: each can only make more accesses racy
/// (`--field-insensitive` may also merge several warnings into one, as it merges locations).
#[derive(Args, Debug, Clone, Copy)]
struct Switches {
    /// Let non-linear locks (allocated in loops, in arrays, conflated) count as held.
    #[arg(long)]
    no_linearity: bool,
    /// Treat every pair of accesses as concurrent: every location with a write needs a lock.
    #[arg(long)]
    no_sharing: bool,
    /// Check locations private to one run of a function at `main`, as if all runs shared them.
    #[arg(long)]
    no_down_fork: bool,
    /// Ignore `pthread_join`: joined threads stay concurrent with what follows.
    #[arg(long)]
    no_joins: bool,
    /// Count accesses through pointers to fresh, not yet published memory as shared.
    #[arg(long)]
    no_uniqueness: bool,
    /// Conflate the memory of every cast between `T*` and `void*` (no per-type `void*` entries).
    #[arg(long)]
    no_void: bool,
    /// Make all fields of a struct object one location.
    #[arg(long)]
    field_insensitive: bool,
    /// Give each function one set of labels for all its calls (no instantiation per call).
    #[arg(long)]
    context_insensitive: bool,
}

impl Switches {
    /// Switches the chosen techniques off in `options`, by the names the library knows them by.
    fn apply(self, options: &mut c_frontend::analysis::CheckOptions) {
        let off = [
            (self.no_linearity, "linearity"),
            (self.no_sharing, "sharing"),
            (self.no_down_fork, "down-fork"),
            (self.no_joins, "joins"),
            (self.no_uniqueness, "uniqueness"),
            (self.no_void, "void"),
            (self.field_insensitive, "field"),
            (self.context_insensitive, "context"),
        ];
        for (on, name) in off {
            if on {
                let known = options.disable(name);
                debug_assert!(known, "{name} is a technique");
            }
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Check POSIX-threads C programs for data races (consistent correlation, paper §3): exit 0
    /// if no warning, 1 if warnings, 2 if the program cannot be analysed.
    Check {
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
        format: FormatArg,
        #[command(flatten)]
        switches: Switches,
    },
    /// Type-check a program of the formal core language λ▷ (paper §2): exit 0 if it is
    /// consistently correlated and linear, 1 if not, 2 if it cannot be analysed.
    Lambda {
        /// The λ▷ source file.
        file: PathBuf,
        /// Output format of the verdict.
        #[arg(long, value_enum, default_value = "text")]
        format: FormatArg,
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
    let cli = Cli::parse();
    match cli.command {
        Command::Check {
            files,
            include,
            define,
            undefine,
            std,
            forced_include,
            format,
            switches,
        } => {
            let mut options = c_frontend::analysis::CheckOptions {
                preprocess: c_frontend::preprocess::PreprocessOptions {
                    include_dirs: include,
                    defines: define,
                    undefines: undefine,
                    std,
                    forced_includes: forced_include,
                    ..Default::default()
                },
                ..Default::default()
            };
            switches.apply(&mut options);
            let format = match format {
                FormatArg::Text => Format::Text,
                FormatArg::Json => Format::Json,
            };
            if std::env::var_os("LOCKSMITH_STATS").is_some() {
                solver::stats::enable(|name, value| eprintln!("stats: {name}: {value}"));
            }
            let outcome = match c_frontend::analysis::check_on_large_stack(files, options) {
                Ok(result) => {
                    if std::env::var_os("LOCKSMITH_DEBUG").is_some() {
                        eprint!("{}", c_frontend::analysis::debug_dump(&result));
                    }
                    let r = locksmith::check::render(&result, format);
                    lambda::Outcome {
                        stdout: r.stdout,
                        exit: r.exit,
                        ..Default::default()
                    }
                }
                Err(fatal) => lambda::Outcome {
                    stdout: if format == Format::Json {
                        format!(
                            "{:#}\n",
                            serde_json::json!({ "error": { "message": fatal.0 } })
                        )
                    } else {
                        String::new()
                    },
                    stderr: format!("locksmith: error: {fatal}\n"),
                    exit: 2,
                    dot: None,
                },
            };
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
                format: match format {
                    FormatArg::Text => Format::Text,
                    FormatArg::Json => Format::Json,
                },
                types,
                dot: dot.is_some(),
                constraints,
                no_existentials,
            };
            let name = file.display().to_string();
            let outcome = match std::fs::read(&file) {
                Err(e) => lambda::Outcome {
                    stderr: format!("locksmith: cannot read {name}: {e}\n"),
                    exit: 2,
                    ..Default::default()
                },
                Ok(bytes) => match String::from_utf8(bytes) {
                    Err(_) => lambda::Outcome {
                        stderr: format!("locksmith: {name} is not UTF-8 text\n"),
                        exit: 2,
                        ..Default::default()
                    },
                    Ok(text) => lambda::run(&name, &text, &options),
                },
            };
            if let (Some(path), Some(graph)) = (dot, &outcome.dot) {
                if let Err(e) = std::fs::write(&path, graph) {
                    eprintln!("locksmith: cannot write {}: {e}", path.display());
                    return ExitCode::from(2);
                }
            }
            finish(&outcome)
        }
    }
}

fn finish(outcome: &lambda::Outcome) -> ExitCode {
    let _ = std::io::stdout().write_all(outcome.stdout.as_bytes());
    let _ = std::io::stderr().write_all(outcome.stderr.as_bytes());
    ExitCode::from(outcome.exit as u8)
}

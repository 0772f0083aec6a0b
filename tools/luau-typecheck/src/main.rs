//! `luau-typecheck DEFINITIONS SOURCE`: loads DEFINITIONS (a Luau definitions file: `declare` statements and type
//! aliases for the globals the source uses) and type-checks SOURCE in strict mode. Prints one line per diagnostic,
//! `SOURCE:LINE:COL: error|warning: MESSAGE` (1-based), then `N errors, N warnings`; exits 1 on any error, 2 on bad
//! usage or a definitions file that does not load. `--version` prints the version.
use std::{env, fs, process};

use luau_analyze::{Checker, Severity};

fn main() {
    let args: Vec<String> = env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--version") {
        println!("luau-typecheck {}", env!("CARGO_PKG_VERSION"));
        return;
    }
    if args.len() != 2 {
        eprintln!("usage: luau-typecheck DEFINITIONS SOURCE");
        process::exit(2);
    }
    let read = |path: &str| {
        fs::read_to_string(path).unwrap_or_else(|error| {
            eprintln!("luau-typecheck: cannot read {path}: {error}");
            process::exit(2);
        })
    };
    let definitions = read(&args[0]);
    let source = read(&args[1]);
    let mut checker = Checker::new().unwrap_or_else(|error| {
        eprintln!("luau-typecheck: {error}");
        process::exit(2);
    });
    if let Err(error) = checker.add_definitions(&definitions) {
        eprintln!("luau-typecheck: {} does not load: {error}", args[0]);
        process::exit(2);
    }
    let result = checker.check(&source).unwrap_or_else(|error| {
        eprintln!("luau-typecheck: {error}");
        process::exit(2);
    });
    let (mut errors, mut warnings) = (0, 0);
    for diagnostic in &result.diagnostics {
        let kind = match diagnostic.severity {
            Severity::Error => {
                errors += 1;
                "error"
            }
            Severity::Warning => {
                warnings += 1;
                "warning"
            }
        };
        println!(
            "{}:{}:{}: {kind}: {}",
            args[1],
            diagnostic.line + 1,
            diagnostic.col + 1,
            diagnostic.message
        );
    }
    println!("{errors} errors, {warnings} warnings");
    process::exit(if errors > 0 || result.timed_out { 1 } else { 0 });
}

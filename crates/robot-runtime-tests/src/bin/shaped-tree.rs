//! Writes a behavior tree shaped like the original robot's ([`shaped_tree::tree`]) to a
//! directory, one file per behavior as the original engine reads them, for tools that load a
//! tree from disk: `robot-example --check-tree DIR`, `--tree DIR`, and the inspector's
//! browser tests, which show a 430-behavior tree (350 files) in the page.
//!
//! `cargo run -p robot-runtime-tests --bin shaped-tree -- DIR [FILES] [SEED]` (default 350
//! files, seed 2). The directory must not exist or be empty.

use std::path::Path;
use std::process::ExitCode;

use robot_runtime_tests::shaped_tree;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: shaped-tree DIR [FILES (default 350)] [SEED (default 2)]";
    let Some(dir) = args.first() else {
        eprintln!("{usage}");
        return ExitCode::from(2);
    };
    let number = |k: usize, default: u64| -> Result<u64, String> {
        args.get(k).map_or(Ok(default), |s| {
            s.parse()
                .map_err(|_| format!("{s:?} is not a number; {usage}"))
        })
    };
    let (files, seed) = match (number(1, 350), number(2, 2)) {
        (Ok(f), Ok(s)) if (40..=100_000).contains(&f) => (f as usize, s),
        (Ok(f), Ok(_)) => {
            eprintln!("{f} files: give 40 to 100000");
            return ExitCode::from(2);
        }
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let dir = Path::new(dir);
    if dir.exists()
        && std::fs::read_dir(dir)
            .map(|mut d| d.next().is_some())
            .unwrap_or(true)
    {
        eprintln!("{} exists and is not empty", dir.display());
        return ExitCode::from(2);
    }
    let tree = shaped_tree::tree(files, seed);
    for (name, text) in &tree {
        // Names are relative to the tree's directory (the spine's files have no
        // subdirectory: `/name.json`); never anywhere else.
        let relative = Path::new(name.trim_start_matches('/'));
        if relative
            .components()
            .any(|c| !matches!(c, std::path::Component::Normal(_)))
        {
            eprintln!("{name}: not a path inside the tree");
            return ExitCode::FAILURE;
        }
        let path = dir.join(relative);
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&path, text));
        if let Err(e) = written {
            eprintln!("cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    println!("{} files in {}", tree.len(), dir.display());
    ExitCode::SUCCESS
}

//! Both packages are ready to publish as their ecosystems expect: `cargo package -p df64gl`
//! builds the crate from exactly the files it ships (the shaders and known answers it reads
//! included, nothing of the command line, the tests or `js/`), and `npm pack --dry-run` in
//! `js/` lists only what the module needs.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `cargo package` lists the shipped files, then unpacks and builds them: a file the library
/// reads (`include_str!`) that `include` misses fails the build here, as it would on crates.io.
#[test]
fn cargo_package_ships_the_library_and_what_it_reads() {
    let cargo = env!("CARGO");
    let list = Command::new(cargo)
        .args(["package", "-p", "df64gl", "--list", "--allow-dirty"])
        .current_dir(root())
        .output()
        .expect("cargo runs");
    assert!(
        list.status.success(),
        "{}",
        String::from_utf8_lossy(&list.stderr)
    );
    let files: BTreeSet<String> = String::from_utf8_lossy(&list.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    for needed in [
        "Cargo.toml",
        "README.md",
        "LICENSE-MIT",
        "LICENSE-APACHE",
        "src/lib.rs",
        "src/fft/gpu_fft.rs",
        "glsl/df64.glsl",
        "glsl/qf128.glsl",
        "glsl/stockham_common.glsl",
        "assets/known-answers.json",
    ] {
        assert!(files.contains(needed), "{needed} missing from {files:?}");
    }
    // Every shader the library includes ships.
    for entry in std::fs::read_dir(root().join("glsl")).expect("glsl/") {
        let name = entry
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        assert!(
            files.contains(&format!("glsl/{name}")),
            "glsl/{name} not shipped"
        );
    }
    let strays: Vec<&String> = files
        .iter()
        .filter(|f| {
            [
                "cli/",
                "tests/",
                "js/",
                "docs/",
                "examples/",
                "target/",
                ".ci/",
            ]
            .iter()
            .any(|p| f.starts_with(p))
        })
        .collect();
    assert!(
        strays.is_empty(),
        "shipped but not the library's: {strays:?}"
    );

    // The real thing: package and build the unpacked crate (its own target directory, so the
    // build does not wait on the one running these tests).
    let target = root().join("target").join("package-check");
    let out = Command::new(cargo)
        .args(["package", "-p", "df64gl", "--allow-dirty"])
        .env("CARGO_TARGET_DIR", &target)
        .current_dir(root())
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo package failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `npm pack --dry-run` in `js/`: the module's files and its licences, nothing else (no
/// examples, benchmarks or node_modules).
#[test]
fn npm_pack_lists_only_what_the_module_needs() {
    let js = root().join("js");
    let out = match Command::new("npm")
        .args(["pack", "--dry-run", "--json"])
        .current_dir(&js)
        .output()
    {
        Ok(out) => out,
        Err(e) => panic!("npm is needed for this test (apt-get install npm): {e}"),
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("npm pack --json prints JSON");
    let files: BTreeSet<String> = report[0]["files"]
        .as_array()
        .expect("a file list")
        .iter()
        .filter_map(|f| f["path"].as_str().map(str::to_string))
        .collect();
    // The front matter, and every file under src/ (the modules) and types/ (the declarations).
    let mut expected: BTreeSet<String> = [
        "package.json",
        "README.md",
        "CHANGELOG.md",
        "LICENSE-MIT",
        "LICENSE-APACHE",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut stack = vec![js.join("src"), js.join("types")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir)
            .expect("js/src and js/types")
            .flatten()
        {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(rel) = path.strip_prefix(&js) {
                expected.insert(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    assert_eq!(files, expected);
    // Every module a packed module imports (`./x.js`, `../y/z.js`) is packed too.
    for module in files.iter().filter(|f| f.ends_with(".js")) {
        let text = std::fs::read_to_string(js.join(module)).expect("module source");
        for spec in text
            .split("from '")
            .skip(1)
            .chain(text.split("import('").skip(1))
            .filter_map(|p| p.split('\'').next())
            .filter(|p| p.starts_with('.'))
        {
            let mut parts: Vec<&str> = module.split('/').collect();
            parts.pop();
            for piece in spec.split('/') {
                match piece {
                    "." => {}
                    ".." => {
                        parts.pop();
                    }
                    p => parts.push(p),
                }
            }
            let target = parts.join("/");
            assert!(
                files.contains(&target),
                "{module} imports {spec}, not packed"
            );
        }
    }
}

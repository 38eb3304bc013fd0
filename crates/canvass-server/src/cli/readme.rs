//! The README's command and configuration tables checked against the clap commands, so neither drifts: every
//! command is documented once, every documented flag exists on the commands said to take it, under its variable.

use std::collections::BTreeSet;

use clap::{Command, CommandFactory};

use super::Cli;

const README: &str = include_str!("../../../../README.md");

/// The cells of the table rows of the README section headed `## {heading}` (header and rule left out).
fn table(heading: &str) -> Vec<Vec<String>> {
    let section = README.split(&format!("\n## {heading}\n")).nth(1).unwrap_or_default();
    let section = section.split("\n## ").next().unwrap_or_default();
    section
        .lines()
        .filter(|line| line.starts_with('|') && !line.starts_with("|---"))
        .skip(1)
        .map(|line| line.trim_matches('|').split(" | ").map(|cell| cell.trim().trim_matches('`').to_owned()).collect())
        .collect()
}

/// Every command that runs something (no subcommands of its own), by its words: `sender add`.
fn leaves(command: &Command, prefix: &str, into: &mut BTreeSet<String>) {
    let subcommands: Vec<&Command> = command.get_subcommands().filter(|sub| sub.get_name() != "help").collect();
    if subcommands.is_empty() {
        into.insert(prefix.trim().to_owned());
    }
    for sub in subcommands {
        leaves(sub, &format!("{prefix} {}", sub.get_name()), into);
    }
}

/// The command `words` name, and the long flags it takes (its own and the global ones).
fn command_and_flags<'a>(root: &'a Command, words: &str) -> Option<(&'a Command, BTreeSet<String>)> {
    let mut command = root;
    let mut flags: BTreeSet<String> = BTreeSet::new();
    let add = |command: &Command, flags: &mut BTreeSet<String>| {
        flags.extend(command.get_arguments().filter_map(|arg| arg.get_long()).map(str::to_owned));
    };
    add(root, &mut flags);
    for word in words.split_whitespace() {
        command = command.find_subcommand(word)?;
        add(command, &mut flags);
    }
    Some((command, flags))
}

#[test]
fn the_command_table_lists_every_command_once_with_flags_it_takes() {
    let root = Cli::command();
    let mut served = BTreeSet::new();
    leaves(&root, "", &mut served);
    let mut documented = BTreeSet::new();
    for row in table("Command line") {
        let usage = row[0].strip_prefix("canvass ").unwrap_or_else(|| panic!("{:?} is not a canvass command", row[0]));
        let words: Vec<&str> = usage.split_whitespace().take_while(|word| !word.starts_with(['-', '[', '…'])).collect();
        let words = words.join(" ");
        let Some((_, flags)) = command_and_flags(&root, &words) else { panic!("README names `canvass {words}`") };
        for flag in usage.split(|c: char| c.is_whitespace() || c == '[' || c == ']').filter(|w| w.starts_with("--")) {
            assert!(flags.contains(&flag[2..]), "README: `canvass {words}` has no {flag}");
        }
        assert!(documented.insert(words.clone()), "README lists `canvass {words}` twice");
    }
    assert!(documented.len() > 5, "the README's command table was not found");
    assert_eq!(documented, served, "README.md, \"## Command line\": one row per command");
}

#[test]
fn the_configuration_table_names_each_flag_with_its_variable_on_its_commands() {
    let root = Cli::command();
    let mut documented = BTreeSet::new();
    for row in table("Configuration") {
        let (variable, flag, used_by) = (row[0].as_str(), row[1].as_str(), row[2].as_str());
        let Some(long) = flag.split_whitespace().last().and_then(|flag| flag.strip_prefix("--")) else { continue };
        let commands: Vec<&str> = if used_by == "every command" {
            vec![""]
        } else {
            used_by.split(", ").map(|command| command.trim_matches('`')).collect()
        };
        for words in commands {
            let Some((command, _)) = command_and_flags(&root, words) else {
                panic!("{variable}: no command `{words}`")
            };
            let argument = root
                .get_arguments()
                .chain(command.get_arguments())
                .find(|arg| arg.get_long() == Some(long))
                .unwrap_or_else(|| panic!("{variable}: `canvass {words}` has no --{long}"));
            let env = argument.get_env().and_then(|env| env.to_str());
            assert_eq!(env, Some(variable), "--{long} of `canvass {words}` reads another variable");
        }
        documented.insert(variable.to_owned());
    }
    let mut read = BTreeSet::new();
    let mut visit = vec![root];
    while let Some(command) = visit.pop() {
        read.extend(command.get_arguments().filter_map(|arg| arg.get_env()?.to_str().map(str::to_owned)));
        visit.extend(command.get_subcommands().cloned());
    }
    assert!(documented.len() > 10, "the README's configuration table was not found");
    assert_eq!(documented, read, "README.md, \"## Configuration\": one row per variable a flag reads");
}

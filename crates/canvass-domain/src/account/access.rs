//! Who may do what: the roles of an account's users, the permissions every keyed operation names, and the one table
//! of which role holds which ([`GRANTS`]). The API's guard asks [`Caller::may`](super::Caller::may) before anything
//! else of a request is read; the README's "Who may do what" is generated from this table.

use std::fmt;

/// A user's role in an account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Everything, and the only role that makes, changes or removes owners. The first user of an account.
    Owner,
    /// Everything an owner does but to owners: users and keys, governance.
    Admin,
    /// Surveys, translations, logic, quotas.
    Editor,
    /// Sendouts, respondents, contacts, reminders.
    Distributor,
    /// Answers, results, exports, reports.
    Analyst,
    /// Reads surveys, sendouts and statistics, without personal data.
    Viewer,
}

impl Role {
    /// Every role, most powerful first.
    pub const ALL: [Role; 6] = [Role::Owner, Role::Admin, Role::Editor, Role::Distributor, Role::Analyst, Role::Viewer];

    /// The role's name in the API (`owner`).
    pub const fn name(self) -> &'static str {
        match self {
            Role::Owner => "owner",
            Role::Admin => "admin",
            Role::Editor => "editor",
            Role::Distributor => "distributor",
            Role::Analyst => "analyst",
            Role::Viewer => "viewer",
        }
    }

    /// The role of a name, if it is one.
    ///
    /// ```
    /// use canvass_domain::account::Role;
    ///
    /// assert_eq!(Role::named("analyst"), Some(Role::Analyst));
    /// assert_eq!(Role::named("Analyst"), None);
    /// ```
    pub fn named(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|role| role.name() == name)
    }

    /// Whether the role holds `permission`, by [`GRANTS`].
    pub fn holds(self, permission: Permission) -> bool {
        GRANTS.iter().any(|(granted, roles)| *granted == permission && roles.contains(&self))
    }

    /// Whether the role reads personal data (contact details, names, delivery errors): every role but `viewer`.
    pub fn sees_personal_data(self) -> bool {
        self != Role::Viewer
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a keyed operation needs. Every operation of the API names exactly one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Permission {
    /// Reading surveys, trees, categories, translations, logic and quotas.
    SurveysRead,
    /// Creating and changing those.
    SurveysWrite,
    /// Reading sendouts, respondents, reminders, labels, background data, statistics, the blocklist, permanent
    /// failures, contacts and lists, and timelines.
    DistributionRead,
    /// Creating and changing those, activation, imports.
    DistributionWrite,
    /// Reading answers, results, exports, reports, charts and alerts.
    AnswersRead,
    /// Recording and replacing answer sets, alerts.
    AnswersWrite,
    /// Retention policies and rules, frequency settings, erasure, what is held on a person, retention runs,
    /// webhooks.
    Governance,
    /// Users, keys, account settings, the audit log.
    Admin,
}

impl Permission {
    /// Every permission, in the order of the table.
    pub const ALL: [Permission; 8] = [
        Permission::SurveysRead,
        Permission::SurveysWrite,
        Permission::DistributionRead,
        Permission::DistributionWrite,
        Permission::AnswersRead,
        Permission::AnswersWrite,
        Permission::Governance,
        Permission::Admin,
    ];

    /// The permission's name, as the OpenAPI document's `x-canvass-permission` and a 403's `detail` give it.
    pub const fn name(self) -> &'static str {
        match self {
            Permission::SurveysRead => "surveys.read",
            Permission::SurveysWrite => "surveys.write",
            Permission::DistributionRead => "distribution.read",
            Permission::DistributionWrite => "distribution.write",
            Permission::AnswersRead => "answers.read",
            Permission::AnswersWrite => "answers.write",
            Permission::Governance => "governance",
            Permission::Admin => "admin",
        }
    }

    /// The permission of a name, if it is one.
    pub fn named(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|permission| permission.name() == name)
    }

    /// What the permission covers, in words (the README's table).
    pub const fn covers(self) -> &'static str {
        match self {
            Permission::SurveysRead => "surveys, trees, categories, translations, logic, quotas (reads)",
            Permission::SurveysWrite => "creating and changing those",
            Permission::DistributionRead => {
                "sendouts, respondents, reminders, labels, background data, statistics, blocklist, permanent \
                 failures, contacts and lists (reads), timelines"
            }
            Permission::DistributionWrite => "creating and changing those, activation, imports",
            Permission::AnswersRead => "answers, answersWithData, results, exports, reports, charts, alerts (reads)",
            Permission::AnswersWrite => "recording and replacing answer sets, alerts",
            Permission::Governance => {
                "retention policies and rules, frequency settings, erasure, persons, retention runs, webhooks"
            }
            Permission::Admin => "users, keys, account settings, the audit log",
        }
    }

    /// Whether the permission is one of changing things (`*.write`): a read-only key never holds one.
    pub const fn is_write(self) -> bool {
        matches!(self, Permission::SurveysWrite | Permission::DistributionWrite | Permission::AnswersWrite)
    }

    /// Whether the permission is one of reading (`*.read`): an operation under it changes nothing, whatever its
    /// method (reading a background data row is a POST).
    pub const fn is_read(self) -> bool {
        matches!(self, Permission::SurveysRead | Permission::DistributionRead | Permission::AnswersRead)
    }

    /// Whether an operation under this permission changes something: always under a `*.write`, never under a
    /// `*.read`, and under `governance` and `admin` unless it is asked with a reading method (`GET`).
    ///
    /// ```
    /// use canvass_domain::account::Permission;
    ///
    /// assert!(Permission::SurveysWrite.changes(true), "copying a survey is a GET");
    /// assert!(!Permission::DistributionRead.changes(false), "reading a row is a POST");
    /// assert!(Permission::Governance.changes(false) && !Permission::Admin.changes(true));
    /// ```
    pub const fn changes(self, reading_method: bool) -> bool {
        self.is_write() || (!self.is_read() && !reading_method)
    }
}

impl fmt::Display for Permission {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

const EVERY_ROLE: &[Role] = &Role::ALL;
const MANAGERS: &[Role] = &[Role::Owner, Role::Admin];

/// The one table of who holds what: each permission and the roles that hold it.
pub const GRANTS: [(Permission, &[Role]); 8] = [
    (Permission::SurveysRead, EVERY_ROLE),
    (Permission::SurveysWrite, &[Role::Owner, Role::Admin, Role::Editor]),
    (Permission::DistributionRead, EVERY_ROLE),
    (Permission::DistributionWrite, &[Role::Owner, Role::Admin, Role::Distributor]),
    (Permission::AnswersRead, &[Role::Owner, Role::Admin, Role::Analyst]),
    (Permission::AnswersWrite, &[Role::Owner, Role::Admin, Role::Analyst]),
    (Permission::Governance, MANAGERS),
    (Permission::Admin, MANAGERS),
];

/// Why a caller may not run an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The caller's role does not hold the operation's permission.
    RoleLacks(Permission),
    /// The caller's key is read-only and the operation changes something.
    ReadOnlyKey(Permission),
}

impl Refusal {
    /// The permission the operation needs.
    pub fn permission(self) -> Permission {
        match self {
            Refusal::RoleLacks(permission) | Refusal::ReadOnlyKey(permission) => permission,
        }
    }

    /// The refusal in words, naming the permission (a 403's `detail`).
    pub fn detail(self, role: Role) -> String {
        match self {
            Refusal::RoleLacks(permission) => {
                format!("this operation needs the permission {permission}, which the role {role} does not hold")
            }
            Refusal::ReadOnlyKey(permission) => {
                format!("this operation ({permission}) changes something, and the key is read-only")
            }
        }
    }
}

/// The markdown table of [`GRANTS`], as the README's "Who may do what" shows it.
pub fn grants_table() -> String {
    let mut table = String::from("| permission | what it covers | roles |\n|---|---|---|\n");
    for (permission, roles) in GRANTS {
        let holders = if roles == EVERY_ROLE {
            "all".to_owned()
        } else {
            roles.iter().map(|role| role.name()).collect::<Vec<_>>().join(", ")
        };
        table.push_str(&format!("| `{permission}` | {} | {holders} |\n", permission.covers()));
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owners_and_admins_hold_every_permission() {
        for permission in Permission::ALL {
            assert!(Role::Owner.holds(permission), "{permission}");
            assert!(Role::Admin.holds(permission), "{permission}");
        }
    }

    #[test]
    fn each_specialist_holds_its_own_writes_and_every_role_reads_surveys_and_sendouts() {
        let writes = [
            (Role::Editor, Permission::SurveysWrite),
            (Role::Distributor, Permission::DistributionWrite),
            (Role::Analyst, Permission::AnswersWrite),
        ];
        for (role, own) in writes {
            for permission in Permission::ALL.into_iter().filter(|p| p.is_write()) {
                assert_eq!(role.holds(permission), permission == own, "{role} {permission}");
            }
            assert!(!role.holds(Permission::Governance) && !role.holds(Permission::Admin), "{role}");
        }
        for role in Role::ALL {
            assert!(role.holds(Permission::SurveysRead) && role.holds(Permission::DistributionRead), "{role}");
        }
    }

    #[test]
    fn a_viewer_reads_no_answers_and_no_personal_data() {
        assert!(!Role::Viewer.holds(Permission::AnswersRead));
        assert!(!Role::Viewer.sees_personal_data());
        assert!(Role::Analyst.holds(Permission::AnswersRead) && !Role::Editor.holds(Permission::AnswersRead));
        assert!(Role::ALL.iter().filter(|role| role.sees_personal_data()).count() == 5);
    }

    #[test]
    fn names_read_back_and_unknown_ones_are_none() {
        for role in Role::ALL {
            assert_eq!(Role::named(role.name()), Some(role));
        }
        for permission in Permission::ALL {
            assert_eq!(Permission::named(permission.name()), Some(permission));
        }
        assert_eq!(Role::named("superuser"), None);
        assert_eq!(Permission::named("surveys.delete"), None);
    }

    #[test]
    fn the_readme_shows_this_table() {
        let readme = include_str!("../../../../README.md");
        let section = readme.split("\n## Who may do what\n").nth(1).unwrap_or_default();
        assert!(section.contains(&grants_table()), "README.md, \"## Who may do what\": paste grants_table()");
    }

    #[test]
    fn the_table_lists_every_permission_once_with_its_holders() {
        let table = grants_table();
        assert_eq!(table.lines().count(), 2 + Permission::ALL.len());
        assert!(table
            .contains("| `surveys.read` | surveys, trees, categories, translations, logic, quotas (reads) | all |"));
        assert!(table.contains("| `answers.read` | answers, answersWithData, results, exports, reports, charts, alerts (reads) | owner, admin, analyst |"));
    }
}

//! The rule: in every scope of a statement (a `SELECT`, a CTE, a subquery, an `UPDATE`, a `DELETE`), every account
//! table is pinned to one account, by `alias.account_id = <parameter or constant>` among the scope's `AND`-ed
//! conditions (`WHERE` and `JOIN … ON`), or by `alias.account_id = other.account_id` with `other` pinned, in this
//! scope or an enclosing one. An `INSERT` into an account table names `account_id` among its columns.
//! CTEs, derived tables and subqueries are scopes of their own: each must pin its own account tables (a CTE's
//! result is no pin for the query that reads it).
//!
//! The same walk checks that an `INSERT … SELECT` into an account table joins the account tables it reads on
//! `account_id` (its `colocation` module); [`check_sql`] also applies [`crate::records`] to every statement.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::ops::ControlFlow;

use colocation::Colocation;
use sqlparser::ast::{
    BinaryOperator, Delete, Expr, FromTable, Insert, JoinConstraint, JoinOperator, ObjectName, OrderBy, Query, Select,
    SetExpr, Statement, TableFactor, TableObject, TableWithJoins, Update, UpdateTableFromKind, Value, Visit, Visitor,
};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

/// Why one statement is not routable to one shard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// The statement did not parse, so it could not be checked.
    Unparsed(String),
    /// An account table (by its name in the scope) is not pinned to one account.
    Unpinned {
        /// The table.
        table: String,
        /// Its alias in the statement (the table's name when it has none).
        alias: String,
    },
    /// An `INSERT` into an account table does not give `account_id`.
    InsertWithoutAccount(String),
    /// A kind of statement the checker does not analyse names an account table.
    Unanalysed(String),
    /// A statement returns an anonymous record (its SQL text), which a Citus coordinator cannot read back.
    AnonymousRecord(String),
    /// An account table read by an `INSERT … SELECT` into an account table is not joined to the others on
    /// `account_id`, so Citus cannot push the statement down to the shards.
    InsertSelectNotColocated {
        /// The table.
        table: String,
        /// Its alias in the statement (the table's name when it has none).
        alias: String,
    },
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Unparsed(error) => write!(f, "cannot be parsed ({error})"),
            Self::Unpinned { table, alias } if table == alias => write!(f, "`{table}` is not pinned to one account"),
            Self::Unpinned { table, alias } => write!(f, "`{table}` (as `{alias}`) is not pinned to one account"),
            Self::InsertWithoutAccount(table) => write!(f, "INSERT into `{table}` does not give `account_id`"),
            Self::Unanalysed(table) => write!(f, "a statement of a kind this check does not analyse names `{table}`"),
            Self::AnonymousRecord(record) => write!(
                f,
                "returns an anonymous record, `{record}`, which a Citus coordinator cannot read back from a worker; \
                 return its columns (one array each) or a named type"
            ),
            Self::InsertSelectNotColocated { table, alias } => {
                let name = if table == alias { format!("`{table}`") } else { format!("`{table}` (as `{alias}`)") };
                write!(
                    f,
                    "{name} is not joined on `account_id` to the other account tables of the INSERT … SELECT, \
                     which Citus pushes down to the shards only when they all are"
                )
            }
        }
    }
}

/// Checks one SQL text (one or more statements) against the account tables `accounts`.
pub fn check_sql(sql: &str, accounts: &BTreeSet<String>) -> Vec<Finding> {
    let statements = match Parser::parse_sql(&PostgreSqlDialect {}, sql) {
        Ok(statements) => statements,
        Err(error) => return vec![Finding::Unparsed(error.to_string())],
    };
    let mut checker = Checker { accounts, findings: Vec::new(), colocation: Colocation::default() };
    for statement in &statements {
        checker.statement(statement, &Env::default());
        checker.findings.extend(crate::records::anonymous_records(statement).into_iter().map(Finding::AnonymousRecord));
    }
    let mut seen = Vec::new();
    checker.findings.retain(|finding| {
        let new = !seen.contains(finding);
        if new {
            seen.push(finding.clone());
        }
        new
    });
    checker.findings
}

/// What a scope sees of its enclosing scopes: the aliases pinned there, their relations' [`Colocation`] nodes, the
/// CTE names in force, and how deep it is.
#[derive(Clone, Default)]
struct Env {
    pinned: HashSet<String>,
    nodes: HashMap<String, usize>,
    ctes: HashSet<String>,
    depth: usize,
}

/// A relation of one scope, by the name the scope knows it by.
struct Relation {
    alias: String,
    /// The account table it is, or `None` for a CTE, a derived table, a function or a table without an account.
    table: Option<String>,
}

/// A condition of a scope: a filter (`WHERE`, an inner join's `ON`), or the `ON` of an outer join, which restricts
/// only the rows of its nullable side: there it pins only the nullable side's aliases, and only from the other side.
struct Condition {
    expr: Expr,
    /// The aliases of the nullable side of an outer join; `None` for a filter.
    nullable: Option<HashSet<String>>,
}

impl Condition {
    fn filter(expr: Expr) -> Self {
        Self { expr, nullable: None }
    }

    /// Whether an equality in this condition can make `alias` pinned.
    fn can_pin(&self, alias: &str) -> bool {
        self.nullable.as_ref().is_none_or(|nullable| nullable.contains(alias))
    }
}

/// The relations and `AND`-ed conditions of one scope, and the subqueries found in it.
#[derive(Default)]
struct Scope {
    relations: Vec<Relation>,
    conditions: Vec<Condition>,
    /// Subqueries of the scope (in expressions, derived tables, function arguments): checked with its pins.
    nested: Vec<Query>,
}

struct Checker<'a> {
    accounts: &'a BTreeSet<String>,
    findings: Vec<Finding>,
    colocation: Colocation,
}

impl Checker<'_> {
    fn statement(&mut self, statement: &Statement, env: &Env) {
        match statement {
            Statement::Query(query) => self.query(query, env),
            Statement::Insert(insert) => self.insert(insert, env),
            Statement::Update(update) => self.update(update, env),
            Statement::Delete(delete) => self.delete(delete, env),
            other => self.unanalysed(other),
        }
    }

    /// A statement kind without a rule (transaction control, `SET`, DDL): fine unless it names an account table.
    fn unanalysed(&mut self, statement: &Statement) {
        let mut named = Vec::new();
        let _ = sqlparser::ast::visit_relations(statement, |name| {
            named.push(table_name(name));
            ControlFlow::<()>::Continue(())
        });
        for table in named.into_iter().filter(|table| self.accounts.contains(table)) {
            self.findings.push(Finding::Unanalysed(table));
        }
    }

    fn query(&mut self, query: &Query, env: &Env) {
        let mut env = env.clone();
        if let Some(with) = &query.with {
            for cte in &with.cte_tables {
                // A CTE cannot see the pins of the query around it: it is planned on its own.
                let cte_env = Env { ctes: env.ctes.clone(), depth: env.depth + 1, ..Env::default() };
                self.query(&cte.query, &cte_env);
                env.ctes.insert(cte.alias.name.value.to_lowercase());
            }
        }
        match query.body.as_ref() {
            // The ORDER BY of a plain SELECT may be correlated to its tables: it belongs to the SELECT's scope.
            SetExpr::Select(select) => self.select(select, query.order_by.as_ref(), &env),
            body => {
                self.set_expr(body, &env);
                let mut scope = Scope::default();
                scope.collect_subqueries(&query.order_by);
                self.finish(scope, &env);
            }
        }
    }

    fn set_expr(&mut self, body: &SetExpr, env: &Env) {
        match body {
            SetExpr::Select(select) => self.select(select, None, env),
            SetExpr::Query(query) => self.query(query, env),
            SetExpr::SetOperation { left, right, .. } => {
                self.set_expr(left, env);
                self.set_expr(right, env);
            }
            SetExpr::Insert(statement) | SetExpr::Update(statement) | SetExpr::Delete(statement) => {
                self.statement(statement, env)
            }
            SetExpr::Values(values) => {
                let mut scope = Scope::default();
                scope.collect_subqueries(values);
                self.finish(scope, env);
            }
            other => {
                let mut scope = Scope::default();
                scope.collect_subqueries(other);
                self.finish(scope, env);
            }
        }
    }

    fn select(&mut self, select: &Select, order_by: Option<&OrderBy>, env: &Env) {
        let mut scope = Scope::default();
        for from in &select.from {
            scope.add_from(from, env, self.accounts);
        }
        if let Some(selection) = &select.selection {
            scope.conditions.push(Condition::filter(selection.clone()));
        }
        scope.collect_subqueries(&select.projection);
        scope.collect_subqueries(&select.selection);
        scope.collect_subqueries(&select.having);
        scope.collect_subqueries(&select.group_by);
        if let Some(order_by) = order_by {
            scope.collect_subqueries(order_by);
        }
        self.finish(scope, env);
    }

    fn update(&mut self, update: &Update, env: &Env) {
        let mut scope = Scope::default();
        scope.add_from(&update.table, env, self.accounts);
        if let Some(UpdateTableFromKind::BeforeSet(from) | UpdateTableFromKind::AfterSet(from)) = &update.from {
            for from in from {
                scope.add_from(from, env, self.accounts);
            }
        }
        if let Some(selection) = &update.selection {
            scope.conditions.push(Condition::filter(selection.clone()));
        }
        scope.collect_subqueries(&update.assignments);
        scope.collect_subqueries(&update.selection);
        scope.collect_subqueries(&update.returning);
        self.finish(scope, env);
    }

    fn delete(&mut self, delete: &Delete, env: &Env) {
        let mut scope = Scope::default();
        let (FromTable::WithFromKeyword(from) | FromTable::WithoutKeyword(from)) = &delete.from;
        for from in from.iter().chain(delete.using.iter().flatten()) {
            scope.add_from(from, env, self.accounts);
        }
        if let Some(selection) = &delete.selection {
            scope.conditions.push(Condition::filter(selection.clone()));
        }
        scope.collect_subqueries(&delete.selection);
        scope.collect_subqueries(&delete.returning);
        self.finish(scope, env);
    }

    fn insert(&mut self, insert: &Insert, env: &Env) {
        let mut into_account_table = false;
        if let TableObject::TableName(name) = &insert.table {
            let table = table_name(name);
            let gives_account = insert.columns.iter().any(|column| table_name(column) == "account_id");
            into_account_table = self.accounts.contains(&table) && !env.ctes.contains(&table);
            if into_account_table && !gives_account {
                self.findings.push(Finding::InsertWithoutAccount(table));
            }
        }
        if let Some(source) = &insert.source {
            // `INSERT … VALUES` is routed by its values; an `INSERT … SELECT` must be pushed down as a whole.
            if into_account_table && !matches!(source.body.as_ref(), SetExpr::Values(_)) {
                let outer = self.colocation.begin();
                self.query(source, env);
                let findings = self.colocation.end(outer);
                self.findings.extend(findings);
            } else {
                self.query(source, env);
            }
        }
        let mut scope = Scope::default();
        scope.collect_subqueries(&insert.on);
        scope.collect_subqueries(&insert.returning);
        self.finish(scope, env);
    }

    /// Reports the scope's unpinned account tables, records its joins on `account_id`, then checks its subqueries
    /// with its pins and relations in force.
    fn finish(&mut self, scope: Scope, env: &Env) {
        let pinned = scope.pinned(env);
        let mut nodes = HashMap::new();
        for relation in &scope.relations {
            let node = self.colocation.node();
            nodes.insert(relation.alias.clone(), node);
            if let Some(table) = &relation.table {
                self.colocation.read(node, env.depth, table, &relation.alias);
                if !pinned.contains(&relation.alias) {
                    self.findings.push(Finding::Unpinned { table: table.clone(), alias: relation.alias.clone() });
                }
            }
        }
        for (left, right, _) in scope.equalities() {
            let node = |side: &Side| match side {
                Side::Local(alias) => nodes.get(alias),
                Side::Outer(alias) => env.nodes.get(alias),
                Side::Value | Side::Other => None,
            };
            if let (Some(&a), Some(&b)) = (node(&left), node(&right)) {
                self.colocation.join(a, b);
            }
        }
        let mut inner = env.clone();
        inner.pinned.extend(pinned);
        inner.nodes.extend(nodes);
        inner.depth += 1;
        for nested in &scope.nested {
            self.query(nested, &inner);
        }
    }
}

impl Scope {
    fn add_from(&mut self, from: &TableWithJoins, env: &Env, accounts: &BTreeSet<String>) {
        self.add_factor(&from.relation, env, accounts);
        for join in &from.joins {
            let before: HashSet<String> = self.relations.iter().map(|relation| relation.alias.clone()).collect();
            self.add_factor(&join.relation, env, accounts);
            let Some((constraint, side)) = join_constraint(&join.join_operator) else { continue };
            let joined =
                || self.relations.iter().map(|r| r.alias.clone()).filter(|alias| !before.contains(alias)).collect();
            let nullable = match side {
                Outer::None => None,
                Outer::Left => Some(joined()),
                Outer::Right => Some(before.clone()),
                // Both sides keep their rows: the condition pins nothing (it still joins them on `account_id`).
                Outer::Full => Some(HashSet::new()),
            };
            match constraint {
                JoinConstraint::On(condition) => {
                    self.conditions.push(Condition { expr: condition.clone(), nullable });
                    self.collect_subqueries(condition);
                }
                JoinConstraint::Using(columns) if columns.iter().any(|c| table_name(c) == "account_id") => {
                    self.using_account_id(nullable);
                }
                _ => {}
            }
        }
    }

    /// `JOIN … USING (account_id, …)`: the relation just added shares its account with every one before it.
    fn using_account_id(&mut self, nullable: Option<HashSet<String>>) {
        let Some((last, before)) = self.relations.split_last() else { return };
        let column = |alias: &str| Expr::CompoundIdentifier(vec![alias.into(), "account_id".into()]);
        let equalities: Vec<Condition> = before
            .iter()
            .map(|relation| Condition {
                expr: Expr::BinaryOp {
                    left: Box::new(column(&last.alias)),
                    op: BinaryOperator::Eq,
                    right: Box::new(column(&relation.alias)),
                },
                nullable: nullable.clone(),
            })
            .collect();
        self.conditions.extend(equalities);
    }

    fn add_factor(&mut self, factor: &TableFactor, env: &Env, accounts: &BTreeSet<String>) {
        match factor {
            TableFactor::Table { name, alias, args, .. } => {
                let table = table_name(name);
                let alias = alias.as_ref().map_or_else(|| table.clone(), |alias| alias.name.value.to_lowercase());
                let is_account = accounts.contains(&table) && !env.ctes.contains(&table);
                self.relations.push(Relation { alias, table: is_account.then_some(table) });
                self.collect_subqueries(args);
            }
            TableFactor::Derived { subquery, alias, .. } => {
                let alias = alias.as_ref().map(|alias| alias.name.value.to_lowercase()).unwrap_or_default();
                self.relations.push(Relation { alias, table: None });
                self.nested.push((**subquery).clone());
            }
            TableFactor::NestedJoin { table_with_joins, .. } => self.add_from(table_with_joins, env, accounts),
            other => {
                let alias = table_alias(other).unwrap_or_default();
                self.relations.push(Relation { alias, table: None });
                self.collect_subqueries(other);
            }
        }
    }

    /// Collects the subqueries directly inside `node` (not those nested in them, which their own scope finds).
    fn collect_subqueries<V: Visit>(&mut self, node: &V) {
        struct Collect<'a> {
            depth: usize,
            found: &'a mut Vec<Query>,
        }
        impl Visitor for Collect<'_> {
            type Break = ();
            fn pre_visit_query(&mut self, query: &Query) -> ControlFlow<()> {
                if self.depth == 0 {
                    self.found.push(query.clone());
                }
                self.depth += 1;
                ControlFlow::Continue(())
            }
            fn post_visit_query(&mut self, _query: &Query) -> ControlFlow<()> {
                self.depth -= 1;
                ControlFlow::Continue(())
            }
        }
        let _ = node.visit(&mut Collect { depth: 0, found: &mut self.nested });
    }

    /// The equalities among the `AND`-ed conditions of this scope, each side resolved, with its condition.
    fn equalities(&self) -> Vec<(Side, Side, &Condition)> {
        let mut found = Vec::new();
        for condition in &self.conditions {
            let mut equalities = Vec::new();
            conjuncts(&condition.expr, &mut equalities);
            for (left, right) in equalities {
                found.push((self.side(left), self.side(right), condition));
            }
        }
        found
    }

    /// The aliases of this scope pinned to one account, given the aliases pinned in the enclosing scopes.
    fn pinned(&self, env: &Env) -> HashSet<String> {
        let mut constant = HashSet::new();
        let mut links: HashMap<String, Vec<String>> = HashMap::new();
        let is_pin = |side: &Side| match side {
            Side::Value => true,
            Side::Outer(alias) => env.pinned.contains(alias),
            Side::Local(_) | Side::Other => false,
        };
        for (left, right, condition) in self.equalities() {
            match (left, right) {
                (Side::Local(alias), pin) | (pin, Side::Local(alias)) if is_pin(&pin) && condition.can_pin(&alias) => {
                    constant.insert(alias);
                }
                (Side::Local(a), Side::Local(b)) => {
                    // An edge from a to b: when a is pinned, so is b.
                    if condition.can_pin(&b) {
                        links.entry(a.clone()).or_default().push(b.clone());
                    }
                    if condition.can_pin(&a) {
                        links.entry(b).or_default().push(a);
                    }
                }
                _ => {}
            }
        }
        let mut pinned = constant.clone();
        let mut todo: Vec<String> = constant.into_iter().collect();
        while let Some(alias) = todo.pop() {
            for next in links.get(&alias).into_iter().flatten() {
                if pinned.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        pinned
    }

    /// What one side of an equality is: the `account_id` of an alias of this scope or of an enclosing one, a
    /// parameter or a constant, or something else.
    fn side(&self, expr: &Expr) -> Side {
        match unwrap(expr) {
            Expr::Value(value) => match &value.value {
                Value::Placeholder(_) | Value::Number(..) | Value::SingleQuotedString(_) => Side::Value,
                _ => Side::Other,
            },
            Expr::CompoundIdentifier(parts) if parts.len() >= 2 => {
                let column = parts[parts.len() - 1].value.to_lowercase();
                let alias = parts[parts.len() - 2].value.to_lowercase();
                if column != "account_id" {
                    Side::Other
                } else if self.relations.iter().any(|relation| relation.alias == alias) {
                    Side::Local(alias)
                } else {
                    Side::Outer(alias)
                }
            }
            Expr::Identifier(ident) if ident.value.eq_ignore_ascii_case("account_id") => {
                // Unqualified: the one account table of the scope (PostgreSQL refuses an ambiguous name).
                let mut tables = self.relations.iter().filter(|relation| relation.table.is_some());
                match (tables.next(), tables.next()) {
                    (Some(relation), None) => Side::Local(relation.alias.clone()),
                    _ => Side::Other,
                }
            }
            _ => Side::Other,
        }
    }
}

enum Side {
    /// The `account_id` of a relation of the scope.
    Local(String),
    /// The `account_id` of a relation of an enclosing scope.
    Outer(String),
    /// A parameter or a constant.
    Value,
    Other,
}

/// The equalities among the `AND`-ed conditions of `expr` (an `OR` pins nothing).
fn conjuncts<'e>(expr: &'e Expr, out: &mut Vec<(&'e Expr, &'e Expr)>) {
    match expr {
        Expr::Nested(inner) => conjuncts(inner, out),
        Expr::BinaryOp { left, op: BinaryOperator::And, right } => {
            conjuncts(left, out);
            conjuncts(right, out);
        }
        Expr::BinaryOp { left, op: BinaryOperator::Eq, right } => out.push((left, right)),
        _ => {}
    }
}

/// `expr` without parentheses and casts (`$1::bigint`).
fn unwrap(expr: &Expr) -> &Expr {
    match expr {
        Expr::Nested(inner) => unwrap(inner),
        Expr::Cast { expr, .. } => unwrap(expr),
        other => other,
    }
}

/// The last part of an object name, lower-cased (`"public"."outbox"` is `outbox`).
fn table_name(name: &ObjectName) -> String {
    name.0.last().and_then(|part| part.as_ident()).map(|ident| ident.value.to_lowercase()).unwrap_or_default()
}

fn table_alias(factor: &TableFactor) -> Option<String> {
    let alias = match factor {
        TableFactor::Function { alias, .. }
        | TableFactor::UNNEST { alias, .. }
        | TableFactor::TableFunction { alias, .. }
        | TableFactor::JsonTable { alias, .. } => alias.as_ref(),
        _ => None,
    };
    alias.map(|alias| alias.name.value.to_lowercase())
}

/// Which side of a join keeps its rows when the other has no match.
enum Outer {
    None,
    Left,
    Right,
    Full,
}

fn join_constraint(operator: &JoinOperator) -> Option<(&JoinConstraint, Outer)> {
    match operator {
        JoinOperator::Join(c) | JoinOperator::Inner(c) | JoinOperator::CrossJoin(c) => Some((c, Outer::None)),
        JoinOperator::Left(c) | JoinOperator::LeftOuter(c) => Some((c, Outer::Left)),
        JoinOperator::Right(c) | JoinOperator::RightOuter(c) => Some((c, Outer::Right)),
        JoinOperator::FullOuter(c) => Some((c, Outer::Full)),
        _ => None,
    }
}

mod colocation;

#[cfg(test)]
mod tests;

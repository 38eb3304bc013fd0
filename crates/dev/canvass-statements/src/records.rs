//! The rule on what a statement returns: no anonymous record. A Citus worker sends its rows to the coordinator as
//! text, and the coordinator cannot parse an anonymous record back ("input of anonymous composite types is not
//! implemented"), so no `SELECT` (in any scope) and no `RETURNING` list returns a row built by `(a, b)` or
//! `ROW(…)`, alone or passed through an aggregate, `coalesce`, an array or parentheses. A row turned into JSON, cast
//! to a named type or compared (`(a, b) = ($1, $2)`) is not returned as a record, and a whole-table reference
//! (`SELECT t FROM t`) has the table's named type.

use std::ops::ControlFlow;

use sqlparser::ast::{
    BinaryOperator, DataType, Expr, Function, FunctionArg, FunctionArgExpr, FunctionArguments, Query, SelectItem,
    SetExpr, Statement, Visit, Visitor,
};

/// Functions that return (an array of) their argument's type, so a record given to them is returned as one.
const PASSING_THROUGH: &[&str] = &[
    "array_agg",
    "any_value",
    "min",
    "max",
    "coalesce",
    "nullif",
    "greatest",
    "least",
    "first_value",
    "last_value",
    "nth_value",
    "lag",
    "lead",
    "unnest",
    "array_append",
    "array_prepend",
    "array_cat",
    "array_remove",
    "array_replace",
];

/// The anonymous records `statement` returns, in any of its scopes, each as its SQL text.
pub fn anonymous_records(statement: &Statement) -> Vec<String> {
    let mut finder = Finder { found: Vec::new() };
    let _ = statement.visit(&mut finder);
    finder.found
}

struct Finder {
    found: Vec<String>,
}

impl Finder {
    fn items(&mut self, items: &[SelectItem]) {
        for item in items {
            let (SelectItem::UnnamedExpr(expr)
            | SelectItem::ExprWithAlias { expr, .. }
            | SelectItem::ExprWithAliases { expr, .. }) = item
            else {
                continue;
            };
            if let Some(record) = record(expr) {
                self.found.push(record.to_string());
            }
        }
    }

    /// The `SELECT`s of one query body; a nested query (`SetExpr::Query`) is visited on its own.
    fn body(&mut self, body: &SetExpr) {
        match body {
            SetExpr::Select(select) => self.items(&select.projection),
            SetExpr::SetOperation { left, right, .. } => {
                self.body(left);
                self.body(right);
            }
            _ => {}
        }
    }
}

impl Visitor for Finder {
    type Break = ();

    fn pre_visit_query(&mut self, query: &Query) -> ControlFlow<()> {
        self.body(&query.body);
        ControlFlow::Continue(())
    }

    fn pre_visit_statement(&mut self, statement: &Statement) -> ControlFlow<()> {
        let returning = match statement {
            Statement::Insert(insert) => &insert.returning,
            Statement::Update(update) => &update.returning,
            Statement::Delete(delete) => &delete.returning,
            _ => &None,
        };
        self.items(returning.as_deref().unwrap_or_default());
        ControlFlow::Continue(())
    }
}

/// The anonymous record that `expr`, a returned value, is or carries: `(a, b)` or `ROW(…)`, directly or through
/// parentheses, an array, a `CASE` result, `||` or a function of [`PASSING_THROUGH`].
fn record(expr: &Expr) -> Option<&Expr> {
    match expr {
        Expr::Tuple(items) if items.len() > 1 => Some(expr),
        Expr::Function(function) if name(function) == "row" => Some(expr),
        Expr::Function(function) if PASSING_THROUGH.contains(&name(function).as_str()) => {
            arguments(function).find_map(record)
        }
        Expr::Nested(inner) => record(inner),
        Expr::Array(array) => array.elem.iter().find_map(record),
        Expr::Case { conditions, else_result, .. } => {
            conditions.iter().map(|when| &when.result).chain(else_result.as_deref()).find_map(record)
        }
        // `::record` and `::record[]` keep it anonymous; a cast to any other type names it.
        Expr::Cast { expr: inner, data_type, .. } if is_record_type(data_type) => record(inner),
        Expr::BinaryOp { left, op: BinaryOperator::StringConcat, right } => record(left).or_else(|| record(right)),
        // An element or a slice of an array of records.
        Expr::CompoundFieldAccess { root, access_chain }
            if access_chain.iter().all(|access| matches!(access, sqlparser::ast::AccessExpr::Subscript(_))) =>
        {
            record(root)
        }
        _ => None,
    }
}

/// A function's name, lower-cased, without its schema.
fn name(function: &Function) -> String {
    function.name.0.last().and_then(|part| part.as_ident()).map(|ident| ident.value.to_lowercase()).unwrap_or_default()
}

/// The expressions given as a function's arguments (not its `ORDER BY` or `FILTER`).
fn arguments(function: &Function) -> impl Iterator<Item = &Expr> {
    let args = match &function.args {
        FunctionArguments::List(list) => list.args.as_slice(),
        _ => &[],
    };
    args.iter().filter_map(|arg| match arg {
        FunctionArg::Unnamed(FunctionArgExpr::Expr(expr))
        | FunctionArg::Named { arg: FunctionArgExpr::Expr(expr), .. }
        | FunctionArg::ExprNamed { arg: FunctionArgExpr::Expr(expr), .. } => Some(expr),
        _ => None,
    })
}

fn is_record_type(data_type: &DataType) -> bool {
    data_type.to_string().to_lowercase().trim_end_matches("[]") == "record"
}

#[cfg(test)]
mod tests;

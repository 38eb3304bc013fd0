//! Categories: a name is checked, and each account reads its own categories only, in creation order.

use crate::ids::CategoryId;
use crate::use_cases::categories::{create, get, list};

use super::seeds::{invalid_fields, not_found, two_accounts, At, NOW};

#[test]
fn a_blank_name_is_refused_naming_the_field() {
    let (mut memory, acme, _) = two_accounts();
    assert_eq!(invalid_fields(create(&mut memory, &At(NOW), acme, "  ")), ["name"]);
    assert!(list(&mut memory, acme).unwrap().is_empty());
}

#[test]
fn categories_are_listed_in_creation_order_within_their_account() {
    let (mut memory, acme, other) = two_accounts();
    let hr = create(&mut memory, &At(NOW), acme, "HR").unwrap();
    let sales = create(&mut memory, &At(NOW), acme, "Sales").unwrap();
    let theirs = create(&mut memory, &At(NOW), other, "Theirs").unwrap();

    assert_eq!(list(&mut memory, acme).unwrap(), [hr.clone(), sales]);
    assert_eq!(get(&mut memory, acme, hr.id).unwrap().name, "HR");
    assert!(not_found(&get(&mut memory, acme, theirs.id), "category"), "another account's category");
    assert!(not_found(&get(&mut memory, other, hr.id), "category"));
    assert!(not_found(&get(&mut memory, acme, CategoryId::new(999)), "category"));
}

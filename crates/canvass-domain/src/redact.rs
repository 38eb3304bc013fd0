//! `Debug` for the types that hold personal data (contact details, background data, open text): they show what
//! identifies a record to its operator and `..` for the rest, so no `{:?}` in a log, a panic or an error quotes a
//! person. `tests/personal_data_in_debug.rs` formats each of them with a planted address and text.

/// Implements `Debug` for a struct, showing only the named fields (none of them personal) and `..` for the rest.
///
/// ```
/// use canvass_domain::debug_without_personal_data;
///
/// struct Contact { id: u32, email: String }
/// debug_without_personal_data!(Contact { id });
///
/// let shown = format!("{:?}", Contact { id: 7, email: "ann@example.com".into() });
/// assert_eq!(shown, "Contact { id: 7, .. }");
/// ```
#[macro_export]
macro_rules! debug_without_personal_data {
    ($type:ident $(<$life:lifetime>)? { $($field:ident),* $(,)? }) => {
        impl $(<$life>)? ::std::fmt::Debug for $type $(<$life>)? {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.debug_struct(stringify!($type))
                    $(.field(stringify!($field), &self.$field))*
                    .finish_non_exhaustive()
            }
        }
    };
}

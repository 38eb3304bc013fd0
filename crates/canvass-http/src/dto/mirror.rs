//! [`mirrored`]: a wire enum declared once beside the domain enum it mirrors, with its conversions generated.

/// Declares a wire enum (its attributes, serde and utoipa ones included, kept as written) and the conversions
/// between it and the domain enum it mirrors, variant by variant: `<=>` both ways, `=>` from the wire into the
/// domain only (a body's enum), `<=` from the domain onto the wire only (a response's enum). A variant named
/// otherwise in the domain says so after an `=`: `Text = Texts`. The domain stays free of HTTP crates; a variant
/// added to either side and not to the other fails to compile.
macro_rules! mirrored {
    ($(#[$attr:meta])* $vis:vis enum $name:ident <=> $domain:ident { $($variants:tt)* }) => {
        $crate::dto::mirror::mirrored!(@enum [$(#[$attr])*] $vis $name { $($variants)* });
        $crate::dto::mirror::mirrored!(@into $name $domain { $($variants)* });
        $crate::dto::mirror::mirrored!(@from $name $domain { $($variants)* });
    };
    ($(#[$attr:meta])* $vis:vis enum $name:ident => $domain:ident { $($variants:tt)* }) => {
        $crate::dto::mirror::mirrored!(@enum [$(#[$attr])*] $vis $name { $($variants)* });
        $crate::dto::mirror::mirrored!(@into $name $domain { $($variants)* });
    };
    ($(#[$attr:meta])* $vis:vis enum $name:ident <= $domain:ident { $($variants:tt)* }) => {
        $crate::dto::mirror::mirrored!(@enum [$(#[$attr])*] $vis $name { $($variants)* });
        $crate::dto::mirror::mirrored!(@from $name $domain { $($variants)* });
    };
    (@enum [$($attr:tt)*] $vis:vis $name:ident {
        $($(#[$vattr:meta])* $variant:ident $(= $other:ident)?),+ $(,)?
    }) => {
        $($attr)*
        $vis enum $name {
            $($(#[$vattr])* $variant,)+
        }
    };
    (@into $name:ident $domain:ident {
        $($(#[$vattr:meta])* $variant:ident $(= $other:ident)?),+ $(,)?
    }) => {
        impl From<$name> for $domain {
            fn from(wire: $name) -> Self {
                match wire {
                    $($name::$variant => $crate::dto::mirror::mirrored!(@domain $domain $variant $($other)?),)+
                }
            }
        }
    };
    (@from $name:ident $domain:ident {
        $($(#[$vattr:meta])* $variant:ident $(= $other:ident)?),+ $(,)?
    }) => {
        impl From<$domain> for $name {
            fn from(domain: $domain) -> Self {
                match domain {
                    $($crate::dto::mirror::mirrored!(@domain $domain $variant $($other)?) => Self::$variant,)+
                }
            }
        }
    };
    (@domain $domain:ident $variant:ident) => {
        $domain::$variant
    };
    (@domain $domain:ident $variant:ident $other:ident) => {
        $domain::$other
    };
}

pub(crate) use mirrored;

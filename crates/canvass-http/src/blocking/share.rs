//! Whose turn a unit of work takes at the store's lane: the lane gives each [`Share`] its fair part of its threads
//! (`lane.rs`). The API guard sets the caller's account for everything a request does ([`Share::scope`]), its
//! streamed body included ([`Share::carried`]); work outside any scope (respondent pages, the provider hooks) is
//! [`Share::Public`].

use std::future::Future;

use canvass_domain::AccountId;
use futures_util::Stream;

/// Who a unit of work is done for, as the lane shares its threads out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Share {
    /// A request of an authenticated API key: the key's account.
    Account(AccountId),
    /// Looking up an API key the cache does not hold, before any account is known: every such look-up shares one
    /// turn, so that keys guessed by a client without one cannot crowd out accounts or respondents.
    KeyLookup,
    /// Everything without an account: the respondent pages and the provider hooks (`/sms/inbound`,
    /// `/inbound/dsn`).
    Public,
}

tokio::task_local! {
    static CURRENT: Share;
}

impl Share {
    /// The share of the request being served: the innermost [`Share::scope`] around it, else [`Share::Public`].
    pub fn current() -> Self {
        CURRENT.try_with(|share| *share).unwrap_or(Self::Public)
    }

    /// Runs `work` with `self` as the current share.
    pub async fn scope<F: Future>(self, work: F) -> F::Output {
        CURRENT.scope(self, work).await
    }

    /// A response body that reads its later chunks in the share of the handler that made it: actix polls a body
    /// after the handler's future (and the scope around it) has ended, so the share is taken now and set again
    /// around each poll.
    pub fn carried<S: Stream + 'static>(body: S) -> impl Stream<Item = S::Item> + 'static {
        let share = Self::current();
        let mut body = Box::pin(body);
        futures_util::stream::poll_fn(move |cx| CURRENT.sync_scope(share, || body.as_mut().poll_next(cx)))
    }
}

#[cfg(test)]
mod tests {
    use futures_util::StreamExt;

    use super::*;

    #[actix_web::test]
    async fn a_scope_sets_the_share_and_a_carried_body_keeps_it_after_the_scope_ends() {
        let account = Share::Account(AccountId::new(7));
        assert_eq!(Share::current(), Share::Public);
        let body = account
            .scope(async {
                assert_eq!(Share::current(), account);
                assert_eq!(Share::KeyLookup.scope(async { Share::current() }).await, Share::KeyLookup);
                Share::carried(futures_util::stream::repeat_with(Share::current).take(2))
            })
            .await;
        assert_eq!(Share::current(), Share::Public);
        assert_eq!(body.collect::<Vec<_>>().await, [account, account]);
    }
}

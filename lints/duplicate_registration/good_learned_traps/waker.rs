//! futures-util's shape: `AtomicWaker::register(cx.waker())` is called on
//! every poll; the context's waker is no key made from a parameter.
use std::task::{Context, Poll};

pub struct AtomicWaker;

impl AtomicWaker {
    pub fn register(&self, _waker: &std::task::Waker) {}
}

pub struct Abortable {
    waker: AtomicWaker,
}

impl Abortable {
    fn poll_inner(&self, cx: &mut Context<'_>) -> Poll<()> {
        self.waker.register(cx.waker());
        Poll::Pending
    }

    pub fn poll(&self, cx: &mut Context<'_>) -> Poll<()> {
        let _ = self.poll_inner(cx);
        self.waker.register(cx.waker());
        self.poll_inner(cx)
    }
}

use crate::subscriber::SubscriberBuilder;

pub fn init_logging() {
    SubscriberBuilder::default().with_target(false).init();
}

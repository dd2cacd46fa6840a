mod app;
mod plugins;
mod setup;

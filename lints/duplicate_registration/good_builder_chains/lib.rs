mod app;
mod linker;
mod router;

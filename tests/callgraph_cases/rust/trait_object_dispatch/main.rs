// A trait object: `&dyn Log` calls the implementation of the value behind it, and a
// default method of the trait when the impl does not override it (log::Log with
// `fn enabled` / `fn log`, and the NopLogger that is never installed here).
trait Log {
    fn enabled(&self, level: u8) -> bool {
        level < 3
    }
    fn log(&self, msg: &str);
}

struct Console;

impl Log for Console {
    fn log(&self, msg: &str) {
        println!("{}", msg);
    }
}

struct Nop;

impl Log for Nop {
    fn enabled(&self, _level: u8) -> bool {
        false
    }
    fn log(&self, _msg: &str) {}
}

fn emit(logger: &dyn Log, level: u8, msg: &str) {
    if logger.enabled(level) {
        logger.log(msg);
    }
}

fn main() {
    let c = Console;
    emit(&c, 1, "hi");
}

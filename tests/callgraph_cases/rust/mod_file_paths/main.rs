// `mod x;` files, a directory module with `mod.rs`, and `crate::` / `super::` / `self::`
// paths between them (anyhow's lib.rs: `mod backtrace; mod chain; ...`).
mod net;
mod util;

fn main() {
    let a = net::addr::parse("127.0.0.1");
    util::show(&a);
}

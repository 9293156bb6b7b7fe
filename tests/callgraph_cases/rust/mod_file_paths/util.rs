pub fn show(s: &str) {
    println!("{}", decorate(s));
}

fn decorate(s: &str) -> String {
    format!("<{}>", s)
}

pub fn parse(s: &str) -> String {
    if super::is_valid(s) {
        crate::util::show(s);
        s.to_string()
    } else {
        String::new()
    }
}

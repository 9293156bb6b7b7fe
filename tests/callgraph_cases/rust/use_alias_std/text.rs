pub fn pad(s: &str, n: usize) -> String {
    let mut out = String::new();
    for _ in width(s)..n {
        out.push(' ');
    }
    out + s
}

pub fn width(s: &str) -> usize {
    s.chars().count()
}

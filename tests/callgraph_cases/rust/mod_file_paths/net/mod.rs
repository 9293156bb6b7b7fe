pub mod addr;

pub fn is_valid(s: &str) -> bool {
    self::count_dots(s) == 3
}

fn count_dots(s: &str) -> usize {
    s.matches('.').count()
}

// An enum with an inherent impl: a parser returning `Option<Self>` and a method whose
// match arms call free functions (log's `impl FromStr for Level` / `Level::from_usize`).
enum Cmd {
    Add(i32),
    Quit,
}

impl Cmd {
    fn parse(s: &str) -> Option<Cmd> {
        match s {
            "quit" => Some(Cmd::Quit),
            other => parse_number(other).map(Cmd::Add),
        }
    }

    fn run(&self, total: i32) -> i32 {
        match self {
            Cmd::Add(n) => add(total, *n),
            Cmd::Quit => stop(total),
        }
    }
}

fn parse_number(s: &str) -> Option<i32> {
    s.parse().ok()
}

fn add(a: i32, b: i32) -> i32 {
    a + b
}

fn stop(t: i32) -> i32 {
    t
}

fn main() {
    if let Some(c) = Cmd::parse("5") {
        println!("{}", c.run(1));
    }
}

package main

func split(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if isSpace(s[i]) {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t'
}

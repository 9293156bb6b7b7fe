package shapes

type Shape interface {
	Area() float64
	Name() string
}

type Circle struct{ R float64 }

func (c Circle) Area() float64 { return 3.14159 * c.R * c.R }
func (c Circle) Name() string  { return "circle" }

type Square struct{ S float64 }

func (s Square) Area() float64 { return s.S * s.S }
func (s Square) Name() string  { return "square" }

func Describe(s Shape) string {
	return s.Name() + " " + format(s.Area())
}

func format(f float64) string {
	if f > 10 {
		return "big"
	}
	return "small"
}

# Written from inspect.getcomments: comment lines are gathered in front of a list by slice
# assignment (`comments[:0] = [comment]`) and read back by index (`comments[0].strip()`):
# a slice assignment puts the elements of the value in, not the value itself (here lines,
# not a list of lines).


class Line:
    def __init__(self, text):
        self.text = text

    def strip(self):
        return self.text.strip()


class Block:
    def __init__(self, lines):
        self.lines = lines

    def strip(self):
        return [line.strip() for line in self.lines]


def comments_above(lines, end):
    comments = []
    while end > 0 and lines[end - 1].text.startswith("#"):
        end -= 1
        comments[:0] = [lines[end]]
    while comments and comments[0].strip() == "#":
        comments[:1] = []
    return comments


def header(lines):
    blocks = {}
    blocks["all"] = Block(lines)
    return blocks["all"].strip()


def main():
    lines = [Line("#"), Line("# first"), Line("# second"), Line("def f(): pass")]
    comments_above(lines, 3)
    header(lines)


main()

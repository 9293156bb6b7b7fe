# html.parser.HTMLParser is meant to be subclassed: feed() (the library) calls back the
# handle_* methods the subclass defines
from html.parser import HTMLParser


class LinkCollector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.links.append(self.href(attrs))

    def href(self, attrs):
        return dict(attrs).get("href")


def collect(html):
    parser = LinkCollector()
    parser.feed(html)
    return parser.links


collect('<p><a href="x">x</a></p>')

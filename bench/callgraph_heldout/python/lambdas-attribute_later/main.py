# gettext.GNUTranslations (self.plural = lambda n: ...) and ipaddress (self.hosts = lambda:
# ...): a lambda stored on an object, or returned by a factory, and called later
class Button:
    def __init__(self, on_click=None):
        self.on_click = on_click or (lambda: default_action())

    def click(self):
        return self.on_click()


def default_action():
    return "default"


def custom_action(tag):
    return "custom " + tag


def make_formatter(prefix):
    return lambda text: prefix + shout(text)


def shout(text):
    return text.upper()


Button().click()
Button(on_click=lambda: custom_action("ok")).click()
fmt = make_formatter("> ")
fmt("hi")

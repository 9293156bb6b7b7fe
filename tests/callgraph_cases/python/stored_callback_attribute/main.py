class Button:
    def __init__(self, on_click):
        self.on_click = on_click

    def press(self):
        self.on_click()


def beep():
    pass


Button(beep).press()

def make_default():
    return 0


class Config:
    value = make_default()

    def get(self):
        return self.value


Config().get()

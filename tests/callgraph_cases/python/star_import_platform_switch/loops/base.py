__all__ = ("BaseLoop",)


class BaseLoop:
    def run(self):
        return self.step()

    def step(self):
        return None

# enum.Enum members with values and methods; lookup by value with Cls(value) as code does
# with http.HTTPStatus(code); a classmethod on the enum
import enum


class Status(enum.Enum):
    OK = 200
    NOT_FOUND = 404

    def is_error(self):
        return self.value >= 400

    def phrase(self):
        return humanize(self.name)

    @classmethod
    def from_code(cls, code):
        return cls(code)


def humanize(name):
    return name.replace("_", " ").title()


Status.OK.phrase()
Status.from_code(404).is_error()
Status(200).is_error()

# flask.Flask.response_class / socketserver.BaseServer.RequestHandlerClass: a class kept in
# a class attribute (or passed to __init__) and instantiated through self
class Response:
    def __init__(self, body):
        self.body = body

    def finish(self):
        return self.body


class JSONResponse(Response):
    def finish(self):
        return "{" + self.body + "}"


class App:
    response_class = Response

    def make_response(self, body):
        return self.response_class(body).finish()


class JSONApp(App):
    response_class = JSONResponse


class Server:
    def __init__(self, handler_class):
        self.handler_class = handler_class

    def handle(self, req):
        return self.handler_class(req).finish()


App().make_response("a")
JSONApp().make_response("b")
Server(Response).handle("c")

class Client:
    def perform(self, method, url, on_reply=None, timeout=None, **options):
        reply = self.deliver(method + " " + url, **options)
        for callback in (on_reply or {}).get("reply", []):
            reply = callback(reply)
        return reply

    def deliver(self, prepared, on_reply=None, **options):
        for callback in (on_reply or {}).get("sent", []):
            callback(prepared)
        retry = options.get("retry")
        if retry is not None:
            retry(prepared)
        return prepared

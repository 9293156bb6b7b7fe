import app.Request;

// A static nested Builder with chained setters and build() calling the private
// constructor of the outer class (HttpRequest.newBuilder / Thread.ofPlatform style).
public class Main {
    public static void main(String[] args) {
        Request r = new Request.Builder().path("/x").timeout(5).build();
        r.send();
    }
}

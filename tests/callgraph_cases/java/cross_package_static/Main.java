import app.text.Strings;
import static app.text.Checks.requirePositive;

// A static utility class in another package (java.util.Objects / Collections style),
// one method brought in by a single-type import, one by a static import.
public class Main {
    public static void main(String[] args) {
        int width = requirePositive(8);
        System.out.println(Strings.pad("id", width));
    }
}

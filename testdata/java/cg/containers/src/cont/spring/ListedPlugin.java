package cont.spring;

/** Listed in META-INF/spring.factories under cont.spring.Plugin. */
final class ListedPlugin implements Plugin {
    ListedPlugin() {
    }

    @Override
    public String name() {
        return "listed";
    }
}

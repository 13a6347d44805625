/* The greeters' interface: Hello, Bye and Silent implement it. */
package reach;

interface Greeter {
    void greet();
}

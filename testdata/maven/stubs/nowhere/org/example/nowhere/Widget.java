package org.example.nowhere;

/** The API of org.example:nowhere:1.0, which testdata/maven/missing is compiled against. */
public class Widget implements Gadget {
    public void spin() {
    }
}

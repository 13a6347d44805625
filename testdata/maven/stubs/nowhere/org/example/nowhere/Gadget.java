package org.example.nowhere;

public interface Gadget {
}

package org.example.nowhere;

public class Registry {
    public static int count;
}

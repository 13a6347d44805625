package classgen

import (
	"archive/zip"
	"fmt"
	"io"
)

// Chain returns a superclass chain of n classes deep/C0 extends Object, deep/C1
// extends deep/C0, ..., each with a constructor calling its superclass's, and a class
// deep/Main whose main method creates the deepest class and calls hashCode and
// toString on it as an Object: CHA then asks, for those two calls, what each of the n
// classes selects, which a naive selection answers by walking each class's chain.
func Chain(n int) []Class {
	classes := make([]Class, 0, n+1)
	super := "java/lang/Object"
	for i := range n {
		name := fmt.Sprintf("deep/C%d", i)
		init := (&Code{MaxStack: 1, MaxLocals: 1}).
			Op(Aload0).Invoke(InvokeSpecial, super, "<init>", "()V").Op(Return)
		classes = append(classes, Class{Access: Public | Super, Name: name, Super: super,
			Methods: []Method{{Access: Public, Name: "<init>", Desc: "()V", Code: init}}})
		super = name
	}
	main := (&Code{MaxStack: 2, MaxLocals: 2}).
		New(super).Op(Dup).Invoke(InvokeSpecial, super, "<init>", "()V").Op(Astore1).
		Op(Aload1).Invoke(InvokeVirtual, "java/lang/Object", "hashCode", "()I").Op(Pop).
		Op(Aload1).Invoke(InvokeVirtual, "java/lang/Object", "toString", "()Ljava/lang/String;").Op(Pop).
		Op(Return)
	classes = append(classes, Class{Access: Public | Super, Name: "deep/Main",
		Methods: []Method{{Access: Public | Static, Name: "main", Desc: "([Ljava/lang/String;)V", Code: main}}})
	return classes
}

// WriteJar writes classes as a jar (stored entries: the classes are tiny, and
// compressing thousands of them costs the writer more than it saves the reader).
func WriteJar(w io.Writer, classes []Class) error {
	zw := zip.NewWriter(w)
	for i := range classes {
		b, err := classes[i].Bytes()
		if err != nil {
			return err
		}
		f, err := zw.CreateHeader(&zip.FileHeader{Name: classes[i].Name + ".class", Method: zip.Store})
		if err != nil {
			return fmt.Errorf("writing %s: %w", classes[i].Name, err)
		}
		if _, err := f.Write(b); err != nil {
			return fmt.Errorf("writing %s: %w", classes[i].Name, err)
		}
	}
	return zw.Close()
}

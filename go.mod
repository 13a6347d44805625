module github.com/jcg-lsp/jcg-lsp

go 1.26.8

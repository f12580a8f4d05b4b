package egress

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestRedirectsStayOnTheirOrigin(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "other") }))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, other.URL+"/", http.StatusFound)
		case "/here":
			http.Redirect(w, r, "/done", http.StatusFound)
		default:
			io.WriteString(w, "done")
		}
	}))
	defer srv.Close()
	c := Client(time.Second, nil, 1<<20)
	res, err := c.Get(srv.URL + "/here")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if _, err := c.Get(srv.URL + "/away"); !errors.Is(err, ErrCrossOrigin) {
		t.Fatalf("want ErrCrossOrigin for another port of the same host, got %v", err)
	}
}

func TestBodiesAreBounded(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.Repeat("x", 100))
	}))
	defer srv.Close()
	for max, fails := range map[int64]bool{99: true, 100: false} {
		res, err := Client(time.Second, nil, max).Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		if errors.Is(err, ErrTooLarge) != fails || !fails && len(b) != 100 {
			t.Errorf("bound %d: read %d bytes, err %v", max, len(b), err)
		}
	}
	if _, err := ReadAll(strings.NewReader("12345"), 4); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("ReadAll over the bound: %v", err)
	}
}

func TestOriginMakesDefaultPortsExplicit(t *testing.T) {
	a, _ := http.NewRequest("GET", "https://api.example.org/x", nil)
	b, _ := http.NewRequest("GET", "https://api.example.org:443/y", nil)
	c, _ := http.NewRequest("GET", "http://api.example.org/x", nil)
	if Origin(a.URL) != Origin(b.URL) || Origin(a.URL) == Origin(c.URL) {
		t.Fatalf("origins: %s %s %s", Origin(a.URL), Origin(b.URL), Origin(c.URL))
	}
}

package api

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/supportdraft/supportdraft/auth"
)

// SignInLink is the answer of POST /v1/sign-in-links: the path and query of a one-time
// sign-in link, to put after the server's base URL.
type SignInLink struct {
	Path             string `json:"path"`
	ExpiresInSeconds int    `json:"expires_in_seconds"`
}

// signInLink mints a one-time sign-in link for the caller's own token (POST
// /v1/sign-in-links?next=/app/tickets/T-1): the help desk's sidebar asks for one each time
// it opens, so no API token ever sits in a browser's address bar.
func (s *Server) signInLink(c echo.Context) error {
	p, _ := auth.From(c)
	next := c.QueryParam("next")
	if next == "" {
		next = "/app/"
	}
	path, err := auth.SignInLink(c.Request().Context(), s.Store, p.TokenID, next)
	if errors.Is(err, auth.ErrUnsafeNext) {
		return echo.NewHTTPError(http.StatusBadRequest, err.Error())
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, SignInLink{Path: path, ExpiresInSeconds: int(auth.SignInCodeTTL.Seconds())})
}

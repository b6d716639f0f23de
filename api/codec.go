package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"go.temporal.io/sdk/converter"
)

// codecRoutes serves the payload codec to the Temporal Web UI (its "codec endpoint" set to
// this API's /codec): the UI posts encrypted payloads to /codec/decode and shows what comes
// back. Only reviewers and admins may decode (auth/routes.go); the browser calls
// cross-origin from the UI, so these routes answer CORS for the UI's origin only, with
// credentials (the reader's session cookie). Without a codec there are no such routes.
func (s *Server) codecRoutes(e *echo.Echo) {
	if s.Config.Codec == nil {
		return
	}
	cors := middleware.CORSWithConfig(middleware.CORSConfig{
		AllowOrigins:     []string{s.Config.TemporalUI},
		AllowMethods:     []string{http.MethodPost},
		AllowHeaders:     []string{echo.HeaderContentType, echo.HeaderAuthorization, "X-Namespace"},
		AllowCredentials: true,
	})
	h := echo.WrapHandler(converter.NewPayloadCodecHTTPHandler(s.Config.Codec))
	g := e.Group("/codec", cors)
	g.POST("/encode", h)
	g.POST("/decode", h)
	g.OPTIONS("/encode", echo.MethodNotAllowedHandler) // answered by cors before this runs
	g.OPTIONS("/decode", echo.MethodNotAllowedHandler)
}

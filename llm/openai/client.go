package openai

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/invopop/jsonschema"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/supportdraft/supportdraft/llm"
)

// Config points the OpenAI providers at any OpenAI-compatible endpoint.
type Config struct {
	BaseURL    string
	APIKey     string
	DraftModel string // writes replies
	JudgeModel string // checks claims and scores drafts; may be a cheaper model
	// ToolRounds is how many search_policy calls the drafter may make before it must
	// answer; 0 turns tool use off.
	ToolRounds int
	// RequestTimeout bounds one call to the endpoint; 0 means DefaultRequestTimeout. A hung
	// endpoint then fails the attempt and Temporal retries it, well inside the activity's
	// own timeout, instead of holding every attempt for the whole of it.
	RequestTimeout time.Duration
}

// DefaultRequestTimeout is Config.RequestTimeout when it is zero.
const DefaultRequestTimeout = 60 * time.Second

// NewClient builds the client with the SDK's own retries off: Temporal retries the
// activity, and two retry layers would multiply attempts and hide them from the history.
func NewClient(cfg Config) openai.Client {
	timeout := cfg.RequestTimeout
	if timeout <= 0 {
		timeout = DefaultRequestTimeout
	}
	opts := []option.RequestOption{option.WithMaxRetries(0), option.WithRequestTimeout(timeout)}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	return openai.NewClient(opts...)
}

// ErrMalformedOutput marks model output that is not valid JSON or breaks the schema. It
// is retryable: a sampled model often answers well on the next attempt, so the caller
// retries it a bounded number of times (the activity's MaximumAttempts) and then fails
// the draft, rather than failing on the first bad sample.
var ErrMalformedOutput = errors.New("model returned malformed JSON")

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformedOutput, fmt.Sprintf(format, args...))
}

// IsPermanent reports whether retrying err cannot help: a 4xx from the endpoint (bad
// request, bad key, unknown model) other than 408 timeout, 409 conflict and 429 rate
// limit. Rate limits, 5xx, timeouts, connection errors and malformed output are
// retryable; anything unrecognised is treated as retryable too, since Temporal bounds the
// attempts anyway.
func IsPermanent(err error) bool {
	if err == nil || errors.Is(err, ErrMalformedOutput) {
		return false
	}
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		code := apiErr.StatusCode
		switch {
		case code == 408 || code == 409 || code == 429:
			return false
		case code >= 400 && code < 500:
			return true
		}
	}
	return false
}

// rejected wraps an endpoint error IsPermanent calls permanent, so that callers outside
// this package see llm.ErrRejected through errors.Is while the message stays the
// endpoint's own.
type rejected struct{ error }

func (r rejected) Unwrap() error        { return r.error }
func (r rejected) Is(target error) bool { return target == llm.ErrRejected }

// classify marks the error of one endpoint call: permanent ones become llm.ErrRejected.
func classify(err error) error {
	if IsPermanent(err) {
		return rejected{err}
	}
	return err
}

// StrictSchema reflects a Go struct into the subset of JSON Schema that strict structured
// output accepts: every property required, no additional properties, no $ref, no $schema
// or $id. Deriving it from the struct the reply is parsed into keeps the two in step.
func StrictSchema(v any) *jsonschema.Schema {
	r := jsonschema.Reflector{AllowAdditionalProperties: false, DoNotReference: true, Anonymous: true}
	s := r.Reflect(v)
	s.Version = ""
	return s
}

// LimitTo makes property of s an enum of values, so the model can only answer one of
// them; with no values the property stays as reflected.
func LimitTo(s *jsonschema.Schema, property string, values []string) {
	prop, ok := s.Properties.Get(property)
	if !ok || len(values) == 0 {
		return
	}
	prop.Enum = make([]any, len(values))
	for i, v := range values {
		prop.Enum[i] = v
	}
}

// JSONSchemaFormat wraps a strict schema as a chat completion response_format.
func JSONSchemaFormat(name, description string, schema *jsonschema.Schema) openai.ChatCompletionNewParamsResponseFormatUnion {
	return openai.ChatCompletionNewParamsResponseFormatUnion{
		OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
			JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
				Name:        name,
				Description: openai.String(description),
				Strict:      openai.Bool(true),
				Schema:      schema,
			},
		},
	}
}

// structuredRequest is one structured-output call: the system prompt, one user message,
// the answer's strict response format, and no copy of the exchange kept by the provider.
func structuredRequest(model, system, user string, format openai.ChatCompletionNewParamsResponseFormatUnion) openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{
		Model:          shared.ChatModel(model),
		Messages:       []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(system), openai.UserMessage(user)},
		ResponseFormat: format,
		Store:          openai.Bool(false),
	}
}

// firstMessage returns the message of the first choice, or a malformed-output error when
// the endpoint sent no choice at all.
func firstMessage(c *openai.ChatCompletion) (openai.ChatCompletionMessage, string, error) {
	if c == nil || len(c.Choices) == 0 {
		return openai.ChatCompletionMessage{}, "", malformed("no choices in the completion")
	}
	return c.Choices[0].Message, c.Choices[0].FinishReason, nil
}

// contentJSON returns the message's JSON content, or a malformed-output error naming why
// there is none: a truncated answer (finish_reason "length") cannot be valid JSON.
func contentJSON(msg openai.ChatCompletionMessage, finish string) (string, error) {
	if finish == "length" {
		return "", malformed("output truncated at the token limit")
	}
	content := strings.TrimSpace(msg.Content)
	if content == "" {
		return "", malformed("empty content")
	}
	return content, nil
}

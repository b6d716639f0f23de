// Package temporalclient holds what secures every supportdraft Temporal client: the
// payload codec (so the API, the worker, evals and benches all write encrypted payloads),
// TLS or mTLS, and an API key. Whoever builds a client applies the same Settings.
package temporalclient

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/workflow"

	"github.com/supportdraft/supportdraft/codec"
	"github.com/supportdraft/supportdraft/config"
)

// Settings secure a Temporal client. The zero value is a plain local connection with
// unencrypted payloads (the dev server on loopback).
type Settings struct {
	Keys     *codec.Keys // payload encryption; nil: payloads in clear
	TLS      bool
	CAFile   string // PEM CA for the server's certificate; empty: system roots
	CertFile string // PEM client certificate (mTLS)
	KeyFile  string // PEM client key (mTLS)
	APIKey   string // bearer token sent with every call
}

// FromConfig reads the settings from the configuration; a bad key ring is an error naming
// SUPPORTDRAFT_CODEC_KEYS.
func FromConfig(cfg config.Config) (Settings, error) {
	keys, err := codec.ParseKeys(cfg.CodecKeys)
	if err != nil {
		return Settings{}, err
	}
	return Settings{Keys: keys, TLS: cfg.TemporalTLS, CAFile: cfg.TemporalCA, CertFile: cfg.TemporalCert,
		KeyFile: cfg.TemporalKey, APIKey: cfg.TemporalAPIKey}, nil
}

// Apply sets the codec, the agent propagator, TLS and credentials on o. A worker built on
// the client inherits the codec and the propagator, so its activity results and markers
// are encrypted too and its workflows and activities act for their starter's agent.
//
// gRPC compression is off. The SDK gzips every request by default, and the server answers
// in kind; but the bulk of supportdraft's requests is payloads, encrypted by the codec,
// which do not compress: gzip would spend CPU on each side for nothing.
func (s Settings) Apply(o *client.Options) error {
	o.DataConverter = codec.DataConverter(s.Keys)
	o.FailureConverter = codec.FailureConverter(s.Keys)
	o.ContextPropagators = []workflow.ContextPropagator{AgentPropagator{}}
	o.ConnectionOptions.GrpcCompression = &client.GrpcCompressionNone{}
	if s.TLS {
		tc, err := s.tlsConfig()
		if err != nil {
			return err
		}
		o.ConnectionOptions.TLS = tc
	}
	if s.APIKey != "" {
		o.Credentials = client.NewAPIKeyStaticCredentials(s.APIKey)
	}
	return nil
}

func (s Settings) tlsConfig() (*tls.Config, error) {
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	if s.CAFile != "" {
		pem, err := os.ReadFile(s.CAFile)
		if err != nil {
			return nil, fmt.Errorf("TEMPORAL_TLS_CA: %w", err)
		}
		tc.RootCAs = x509.NewCertPool()
		if !tc.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("TEMPORAL_TLS_CA %s: no PEM certificate in it", s.CAFile)
		}
	}
	if s.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(s.CertFile, s.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("TEMPORAL_TLS_CERT/TEMPORAL_TLS_KEY: %w", err)
		}
		tc.Certificates = []tls.Certificate{cert}
	}
	return tc, nil
}

package codec

import (
	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// EachPayload calls fn for every Payload anywhere inside m (a history event, say), search
// attributes aside: the server indexes those, so no codec touches them, and the draft
// workflow sets only the SDK's own version markers there. It is how a test proves a
// history holds nothing in clear and how `bench workflow` weighs the codec's work.
func EachPayload(m proto.Message, fn func(*commonpb.Payload)) {
	eachPayload(m.ProtoReflect(), fn)
}

func eachPayload(m protoreflect.Message, fn func(*commonpb.Payload)) {
	switch v := m.Interface().(type) {
	case *commonpb.Payload:
		fn(v)
		return
	case *commonpb.SearchAttributes:
		return
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsMap() && fd.MapValue().Message() != nil:
			v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool { eachPayload(mv.Message(), fn); return true })
		case fd.IsList() && fd.Message() != nil:
			for i := 0; i < v.List().Len(); i++ {
				eachPayload(v.List().Get(i).Message(), fn)
			}
		case fd.Message() != nil && !fd.IsList() && !fd.IsMap():
			eachPayload(v.Message(), fn)
		}
		return true
	})
}

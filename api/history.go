package api

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
)

// Step is one line of a draft's story for QA: an activity, update, signal or timer from the
// workflow history, in order, with its time and outcome.
type Step struct {
	EventID int64     `json:"event_id"`
	Time    time.Time `json:"time"`
	Kind    string    `json:"kind"` // activity | update | signal | timer | workflow
	Name    string    `json:"name"`
	Outcome string    `json:"outcome"` // scheduled | completed | failed | timed_out | accepted | rejected | …
	Attempt int32     `json:"attempt,omitempty"`
	Detail  string    `json:"detail,omitempty"`
}

// history answers GET /v1/drafts/{ticket}/history from the Temporal history of the
// ticket's latest run (earlier runs are reachable in the Temporal UI).
func (s *Server) history(c echo.Context) error {
	ctx := c.Request().Context()
	workflowID, err := draftWorkflowID(ctx, c.Param("ticket"))
	if err != nil {
		return err
	}
	if err := s.reachTemporal(ctx); err != nil {
		return err
	}
	iter := s.Temporal.GetWorkflowHistory(ctx, workflowID, "", false,
		enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	activityNames := map[int64]string{}
	steps := []Step{}
	for iter.HasNext() {
		ev, err := iter.Next()
		if err != nil {
			return err
		}
		if st, ok := step(ev, activityNames); ok {
			steps = append(steps, st)
		}
	}
	return c.JSON(http.StatusOK, map[string]any{"workflow_id": workflowID, "steps": steps})
}

// step turns the history events QA cares about into Steps; workflow-task bookkeeping is
// left out.
func step(ev *historypb.HistoryEvent, activityNames map[int64]string) (Step, bool) {
	st := Step{EventID: ev.GetEventId(), Time: ev.GetEventTime().AsTime()}
	switch ev.GetEventType() {
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
		st.Kind, st.Name, st.Outcome = "workflow", "Draft", "started"
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
		st.Kind, st.Name, st.Outcome = "workflow", "Draft", "completed"
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW:
		st.Kind, st.Name, st.Outcome = "workflow", "Draft", "continued_as_new"
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
		name := ev.GetActivityTaskScheduledEventAttributes().GetActivityType().GetName()
		activityNames[ev.GetEventId()] = name
		st.Kind, st.Name, st.Outcome = "activity", name, "scheduled"
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
		a := ev.GetActivityTaskCompletedEventAttributes()
		st.Kind, st.Name, st.Outcome = "activity", activityNames[a.GetScheduledEventId()], "completed"
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED:
		a := ev.GetActivityTaskFailedEventAttributes()
		st.Kind, st.Name, st.Outcome, st.Detail = "activity", activityNames[a.GetScheduledEventId()], "failed", a.GetFailure().GetMessage()
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT:
		a := ev.GetActivityTaskTimedOutEventAttributes()
		st.Kind, st.Name, st.Outcome, st.Detail = "activity", activityNames[a.GetScheduledEventId()], "timed_out", a.GetFailure().GetMessage()
	case enumspb.EVENT_TYPE_MARKER_RECORDED:
		m := ev.GetMarkerRecordedEventAttributes()
		if m.GetMarkerName() != "LocalActivity" {
			return st, false
		}
		st.Kind, st.Name, st.Outcome = "local activity", localActivityName(m), "completed"
		if f := m.GetFailure(); f != nil {
			st.Outcome, st.Detail = "failed", f.GetMessage()
		}
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED:
		st.Kind, st.Name, st.Outcome = "update", ev.GetWorkflowExecutionUpdateAcceptedEventAttributes().GetAcceptedRequest().GetInput().GetName(), "accepted"
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED:
		st.Kind, st.Outcome = "update", "completed"
		if f := ev.GetWorkflowExecutionUpdateCompletedEventAttributes().GetOutcome().GetFailure(); f != nil {
			st.Outcome, st.Detail = "failed", f.GetMessage()
		}
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
		st.Kind, st.Name, st.Outcome = "signal", ev.GetWorkflowExecutionSignaledEventAttributes().GetSignalName(), "received"
	case enumspb.EVENT_TYPE_TIMER_STARTED:
		st.Kind, st.Name, st.Outcome = "timer", "idle timeout", "started"
	case enumspb.EVENT_TYPE_TIMER_FIRED:
		st.Kind, st.Name, st.Outcome = "timer", "idle timeout", "fired"
	default:
		return st, false
	}
	return st, true
}

// localActivityName reads the activity type from a local activity's marker: the SDK
// stores it in the "data" detail as JSON.
func localActivityName(m *historypb.MarkerRecordedEventAttributes) string {
	var data struct{ ActivityType string }
	if p := m.GetDetails()["data"].GetPayloads(); len(p) > 0 {
		_ = json.Unmarshal(p[0].GetData(), &data)
	}
	return data.ActivityType
}

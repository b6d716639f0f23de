package worker_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/interceptor"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/supportdraft/supportdraft/agent"
	"github.com/supportdraft/supportdraft/drafts"
	"github.com/supportdraft/supportdraft/internal/testdb"
	"github.com/supportdraft/supportdraft/internal/testenv"
	"github.com/supportdraft/supportdraft/store"
	"github.com/supportdraft/supportdraft/worker"
	"github.com/supportdraft/supportdraft/workflows"
)

// The test binary doubles as the worker process the crash test kills: with these set,
// TestMain runs a worker instead of the tests.
const (
	envWorkerURL   = "CRASH_TEST_WORKER_DATABASE_URL"
	envWorkerQueue = "CRASH_TEST_WORKER_TASK_QUEUE"
	envWorkerDieAt = "CRASH_TEST_WORKER_DIE_AT" // "before:Activity" or "after:Activity", "#2" for its second run; empty: never
)

func TestMain(m *testing.M) {
	if os.Getenv(envWorkerQueue) != "" {
		if err := runWorkerProcess(); err != nil {
			fmt.Fprintln(os.Stderr, "crash-test worker:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runWorkerProcess is a worker as cmd/supportdraft runs one (the real draft workflow and
// activities, local providers), plus an interceptor that kill -9s the process at one
// activity boundary: before the named activity runs, or after it has run and before its
// result reaches the workflow (for Save: the row is written, the workflow task is not
// complete).
func runWorkerProcess() error {
	s, done, err := testenv.ChildStack(context.Background(), os.Getenv(envWorkerURL))
	if err != nil {
		return err
	}
	defer done()
	w := sdkworker.New(s.Temporal, os.Getenv(envWorkerQueue), sdkworker.Options{
		Interceptors: []interceptor.WorkerInterceptor{&dieAt{boundary: os.Getenv(envWorkerDieAt)}},
		// The killed worker's sticky queue is abandoned: move its tasks on quickly.
		StickyScheduleToStartTimeout: time.Second,
	})
	w.RegisterWorkflowWithOptions(worker.DraftWorkflow(true))
	w.RegisterActivity(s.Activities())
	return w.Run(sdkworker.InterruptCh())
}

// dieAt kills the process at one activity boundary: "before:Save", "after:Save",
// or, with "#2", the second time this process reaches it ("after:Save#2": the
// rebuild's save).
type dieAt struct {
	interceptor.WorkerInterceptorBase
	boundary string
	mu       sync.Mutex
	reached  map[string]int // how many times this process reached each boundary
}

// reach counts one more arrival at boundary and kills the process if it is the one.
func (d *dieAt) reach(boundary string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.reached == nil {
		d.reached = map[string]int{}
	}
	d.reached[boundary]++
	if d.boundary == boundary || d.boundary == fmt.Sprintf("%s#%d", boundary, d.reached[boundary]) {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	}
}

func (d *dieAt) InterceptActivity(_ context.Context, next interceptor.ActivityInboundInterceptor) interceptor.ActivityInboundInterceptor {
	return &dieAtActivity{ActivityInboundInterceptorBase: interceptor.ActivityInboundInterceptorBase{Next: next}, die: d}
}

type dieAtActivity struct {
	interceptor.ActivityInboundInterceptorBase
	die *dieAt
}

func (d *dieAtActivity) ExecuteActivity(ctx context.Context, in *interceptor.ExecuteActivityInput) (any, error) {
	name := activity.GetInfo(ctx).ActivityType.Name
	d.die.reach("before:" + name)
	res, err := d.Next.ExecuteActivity(ctx, in)
	d.die.reach("after:" + name)
	return res, err
}

// A worker killed (kill -9) at any step of a draft's first build, or between a save and
// the end of its workflow task (the first build's, or the rebuild's), is restarted and the
// draft completes once: the open answers iteration 1, the rebuild iteration 2, the discard
// ends the run, and the database holds one row per iteration, none skipped. Each boundary
// runs in its own process, task queue and ticket.
func TestWorkerKilledAtEachStepDraftsOnce(t *testing.T) {
	s, url := testenv.StoreURL(t)
	c := testenv.Temporal(t)
	boundaries := []string{"before:LoadContext", "before:Retrieve", "before:Generate",
		"before:VerifySpans", "before:JudgeClaims", "before:Guard", "before:Compose", "before:Score", "before:Save",
		"after:Save", "after:Save#2", "before:SaveReview", "after:SaveReview"}
	var wg sync.WaitGroup
	slots := make(chan struct{}, 5) // at most this many killed-and-restarted workers at once
	for _, at := range boundaries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			t.Run(at, func(t *testing.T) { killAndRecover(t, s, url, c, at) })
		}()
	}
	wg.Wait()
}

func killAndRecover(t *testing.T, s *store.Store, url string, c client.Client, at string) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	id, tq := testenv.Unique("CRASH-"), testenv.Unique("test-crash-")
	testenv.SaveTicket(t, s, testenv.Ticket(id, 1, "pro", "eu", time.Now().Add(-time.Hour),
		"Our annual Pro plan renewed five days ago. Can we still get a refund?"))

	// The open, then a rebuild: the worker dies in one of them, the other runs on either.
	doomed := startWorker(t, url, tq, at)
	built := make(chan error, 1)
	var view, rebuilt workflows.DraftView
	go func() {
		if err := open(ctx, c, id, tq, &view); err != nil {
			built <- fmt.Errorf("open: %w", err)
			return
		}
		built <- update(ctx, c, id, workflows.UpdateRebuild, &rebuilt)
	}()
	select {
	case <-doomed.exited:
		status, _ := doomed.cmd.ProcessState.Sys().(syscall.WaitStatus)
		require.Equal(t, syscall.SIGKILL, status.Signal(), "the worker should die at %s; its output:\n%s", at, doomed.out.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("the worker never reached %s; its output:\n%s", at, doomed.out.String())
	}
	startWorker(t, url, tq, "")
	require.NoError(t, <-built, "the open and the rebuild survive the worker's death")
	assert.Equal(t, 1, view.Iteration)
	assert.Equal(t, 2, rebuilt.Iteration)

	require.NoError(t, update(ctx, c, id, workflows.UpdateDiscard, nil))
	var res workflows.DraftResult
	require.NoError(t, c.GetWorkflow(ctx, workflows.DraftWorkflowID(agent.Default, id), "").Get(ctx, &res))
	assert.Equal(t, drafts.StatusDiscarded, res.Status)

	iterations := testdb.Column[int](t, ctx, s.Pool(), `SELECT iteration FROM drafts WHERE ticket_id = $1 ORDER BY iteration`, id)
	assert.Equal(t, []int{1, 2}, iterations, "one row per iteration, none twice, none skipped")
}

// process is a worker process the test started.
type process struct {
	cmd    *exec.Cmd
	out    *bytes.Buffer
	exited chan struct{}
}

// startWorker runs this test binary as a worker on tq (see TestMain) that dies at the
// boundary dieAt (empty: never); the test's cleanup stops it.
func startWorker(t *testing.T, url, tq, dieAt string) *process {
	t.Helper()
	p := &process{cmd: exec.Command(os.Args[0]), out: &bytes.Buffer{}, exited: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), envWorkerURL+"="+url, envWorkerQueue+"="+tq, envWorkerDieAt+"="+dieAt)
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	require.NoError(t, p.cmd.Start())
	go func() { _ = p.cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Signal(os.Interrupt)
		select {
		case <-p.exited:
		case <-time.After(10 * time.Second):
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
	})
	return p
}

// open is workflows.Open with a short workflow task timeout: a task the killed worker held
// goes to the restarted one after 2 s instead of the default 10 s.
func open(ctx context.Context, c client.Client, id, tq string, out *workflows.DraftView) error {
	start := c.NewWithStartWorkflowOperation(client.StartWorkflowOptions{
		ID: workflows.DraftWorkflowID(agent.Default, id), TaskQueue: tq, WorkflowTaskTimeout: 2 * time.Second,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_FAIL,
	}, workflows.DraftWorkflowType, &workflows.DraftInput{TicketID: id, Revision: 1, IdleTimeout: time.Hour})
	h, err := c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{
		StartWorkflowOperation: start,
		UpdateOptions: client.UpdateWorkflowOptions{UpdateName: workflows.UpdateOpen, Args: []any{workflows.OpenRequest{Revision: 1}},
			WaitForStage: client.WorkflowUpdateStageCompleted},
	})
	if err != nil {
		return err
	}
	return h.Get(ctx, out)
}

func update(ctx context.Context, c client.Client, id, name string, out any) error {
	h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: workflows.DraftWorkflowID(agent.Default, id), UpdateName: name,
		WaitForStage: client.WorkflowUpdateStageCompleted})
	if err != nil {
		return err
	}
	if out == nil {
		return h.Get(ctx, nil)
	}
	return h.Get(ctx, out)
}

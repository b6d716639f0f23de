package main
import ("encoding/json";"os";"time";"github.com/supportdraft/supportdraft/policy";"github.com/supportdraft/supportdraft/guard";"github.com/supportdraft/supportdraft/trace")
func main(){ vs,err:=policy.ParseDir("corpus/sample"); if err!=nil{panic(err)}
v,_:=guard.DefaultVocabulary()
at,_:=time.Parse(time.RFC3339, os.Args[5])
r,err:=trace.Trace(vs,os.Args[1],trace.Account{Plan:os.Args[2],Region:os.Args[3],Locale:os.Args[4],At:at},v); if err!=nil{panic(err)}
e:=json.NewEncoder(os.Stdout); e.SetIndent("","  "); e.Encode(r)}

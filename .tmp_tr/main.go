package main
import ("fmt";"os";"time";"github.com/supportdraft/supportdraft/policy";"github.com/supportdraft/supportdraft/guard";"github.com/supportdraft/supportdraft/trace")
func main(){ vs,err:=policy.ParseDir(os.Args[1]); if err!=nil{panic(err)}
v,_:=guard.DefaultVocabulary()
at,_:=time.Parse(time.RFC3339, os.Args[2])
for _,f:=range trace.Lint(vs,at,v){fmt.Println(f)}}

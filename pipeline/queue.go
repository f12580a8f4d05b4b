package pipeline

import "sync"

// queue hands a stage's units to the runner's jobs. A job keeps to the
// affinity of its previous unit while that has units left, else takes the
// affinity with the most units left (the first planned on a tie), so each
// warm engine (a compiler version's worker) serves as many units as it can
// and no job idles while units remain. Within an affinity, units keep their
// plan order; without affinities, that is the plan order.
type queue struct {
	mu     sync.Mutex
	groups map[string][]Unit
	order  []string // affinities in plan order
}

func newQueue(units []Unit) *queue {
	q := &queue{groups: map[string][]Unit{}}
	for _, u := range units {
		if _, seen := q.groups[u.Affinity]; !seen {
			q.order = append(q.order, u.Affinity)
		}
		q.groups[u.Affinity] = append(q.groups[u.Affinity], u)
	}
	return q
}

// next takes the next unit for a job whose previous unit had affinity prev.
func (q *queue) next(prev string) (Unit, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	a := prev
	if len(q.groups[a]) == 0 {
		a = ""
		most := 0
		for _, k := range q.order {
			if n := len(q.groups[k]); n > most {
				a, most = k, n
			}
		}
		if most == 0 {
			return Unit{}, false
		}
	}
	u := q.groups[a][0]
	q.groups[a] = q.groups[a][1:]
	return u, true
}

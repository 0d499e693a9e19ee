import gzip, json, sys
recs = [json.loads(l) for l in gzip.open(sys.argv[1], 'rt')]
recs = [d for d in recs if d.get('type') == 'cfs']
recs.sort(key=lambda d: d['ts'])
last_root = {}
found = set()
for i, d in enumerate(recs):
    if d['tg'] != '/' and d.get('propagate') == 1 and d.get('removed_nr') == 0:
        for e in recs[i + 1:]:
            if e['ts'] > d['ts'] + 10000:
                break
            if e['tg'] == '/' and e['rq_cpu'] == d['rq_cpu']:
                found.add('%d.%09d' % (e['ts'] // 10**9, e['ts'] % 10**9))
                break
for t in sorted(found):
    print(t)

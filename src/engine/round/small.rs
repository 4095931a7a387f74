//! A short list that needs no allocation when it has one element (a node's
//! requests: one, except at request end).

#[derive(Clone, Debug)]
pub enum Small<T> {
    One([T; 1]),
    Many(Vec<T>),
}

impl<T> Small<T> {
    pub fn from_fn(n: usize, mut f: impl FnMut(usize) -> T) -> Self {
        match n {
            1 => Small::One([f(0)]),
            _ => Small::Many((0..n).map(f).collect()),
        }
    }

    pub fn map<U>(self, f: impl FnMut(T) -> U) -> Small<U> {
        match self {
            Small::One(one) => Small::One(one.map(f)),
            Small::Many(many) => Small::Many(many.into_iter().map(f).collect()),
        }
    }

    pub fn into_first(self) -> T
    where
        T: Default,
    {
        match self {
            Small::One([one]) => one,
            Small::Many(many) => many.into_iter().next().unwrap_or_default(),
        }
    }
}

impl<T> std::ops::Deref for Small<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            Small::One(one) => one,
            Small::Many(many) => many,
        }
    }
}

impl<T> std::ops::DerefMut for Small<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            Small::One(one) => one,
            Small::Many(many) => many,
        }
    }
}
